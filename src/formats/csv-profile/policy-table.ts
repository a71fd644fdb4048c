// A CSV profile's column policy as the Markdown table docs/formats/csv-profiles.md shows for each
// shipped profile (`npm run docs:policy` writes them; test/docs/policy-tables.test.ts holds the
// docs to them): every column named, with where it goes or why.
import type { PaymentField } from '../../domain/validation/raw-line.js';
import type { CsvProfile } from './profile.js';

/** Where each payment field goes: the bulk request's field, or what settle keeps it for. */
const GOES_TO: Readonly<Record<PaymentField, string>> = {
  debtorIban: 'carried: `debtorAccount.iban`',
  debtorName: 'carried: `debtorName`',
  requestedExecutionDate: 'carried: `requestedExecutionDate`',
  endToEndId: 'carried: `endToEndIdentification`',
  amount: 'carried: `instructedAmount.amount`',
  currency: 'carried: `instructedAmount.currency`',
  creditorIban: 'carried: `creditorAccount.iban`',
  creditorName: 'carried: `creditorName`',
  creditorBic: 'carried: `creditorAgent`',
  remittanceInformation: 'carried: `remittanceInformationUnstructured`',
  creditorReference: 'carried: `remittanceInformationStructured.reference`',
  instructionPriority: 'carried: `instructionPriority`',
  categoryPurpose: 'kept: settle uses it for approvals (SALA lines are payroll); the bulk request has no field for it',
  ultimateDebtor: 'carried: `ultimateDebtor`',
  ultimateCreditor: 'carried: `ultimateCreditor`',
  purpose: 'carried: `purposeCode`',
  instructionId:
    'kept: quoted back in the pain.002 (OrgnlInstrId) and the statements (Refs/InstrId); the bulk request has no field for it',
  creditorOrgId:
    "kept: the creditor's organisation number, by which the changed-account control knows a creditor first; the bulk request has no field for it",
  creditorOrgScheme:
    "kept: the scheme of the creditor's organisation number (e.g. a pain.001 SchmeNm), stored with it; the bulk request has no field for it",
  creditorId:
    "kept: the ERP's own creditor id, by which the changed-account control knows a creditor after the organisation number; the bulk request has no field for it",
};

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function csvProfilePolicyTable(profile: CsvProfile): string {
  const rows = ['| Column | Policy | Where it goes, or why |', '|---|---|---|'];
  for (const [field, header] of Object.entries(profile.columns) as [PaymentField, string][]) {
    const [policy, where] = GOES_TO[field].split(': ') as [string, string];
    rows.push(`| \`${cell(header)}\` | ${policy} (${field}) | ${cell(where)} |`);
  }
  for (const [header, rule] of Object.entries(profile.rules)) {
    const policy =
      'control' in rule
        ? `checked: ${rule.control === 'nbOfTxs' ? 'the number of payments' : 'the sum of the amounts'} of the file`
        : 'allowed' in rule
          ? `checked: ${rule.allowed.map((a) => (a === '' ? '(empty)' : a)).join(', ')}`
          : `checked: the same as ${profile.columns[rule.sameAs] ?? rule.sameAs}`;
    const why =
      'control' in rule
        ? 'every row repeats it; a value that differs is an error, located'
        : `otherwise refused (\`${'sameAs' in rule ? 'COLUMNS_DISAGREE' : (rule.code ?? 'ELEMENT_UNSUPPORTED')}\`): ${rule.why}`;
    rows.push(`| \`${cell(header)}\` | ${cell(policy)} | ${cell(why)} |`);
  }
  for (const [header, why] of Object.entries(profile.ignored))
    rows.push(`| \`${cell(header)}\` | ignored | ${cell(why)} |`);
  return rows.join('\n');
}
