// What a reader hands to validation: the text of each field as found in the file, with where
// it was found. Readers do no interpretation beyond picking the text; validation does the rest.
import type { Issue, IssueLocation } from '../issue.js';

export const PAYMENT_FIELDS = [
  'debtorIban',
  'debtorName',
  'requestedExecutionDate',
  'endToEndId',
  'amount',
  'currency',
  'creditorIban',
  'creditorName',
  'creditorBic',
  'remittanceInformation',
  'creditorReference',
  'instructionPriority',
  'categoryPurpose',
  'ultimateDebtor',
  'ultimateCreditor',
  'purpose',
  'instructionId',
  'creditorOrgId',
  'creditorOrgScheme',
  'creditorId',
] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

export const REQUIRED_FIELDS: readonly PaymentField[] = [
  'debtorIban',
  'debtorName',
  'requestedExecutionDate',
  'endToEndId',
  'amount',
  'currency',
  'creditorIban',
  'creditorName',
];

export interface RawField {
  value: string;
  location: IssueLocation;
}

export type RawFields = Partial<Record<PaymentField, RawField>>;

/**
 * A fields object with every field present (undefined until set) in one fixed order: all
 * lines then share one object shape, which keeps field lookups fast on million-line files.
 */
export function emptyFields(): RawFields {
  return {
    debtorIban: undefined,
    debtorName: undefined,
    requestedExecutionDate: undefined,
    endToEndId: undefined,
    amount: undefined,
    currency: undefined,
    creditorIban: undefined,
    creditorName: undefined,
    creditorBic: undefined,
    remittanceInformation: undefined,
    creditorReference: undefined,
    instructionPriority: undefined,
    categoryPurpose: undefined,
    ultimateDebtor: undefined,
    ultimateCreditor: undefined,
    purpose: undefined,
    instructionId: undefined,
    creditorOrgId: undefined,
    creditorOrgScheme: undefined,
    creditorId: undefined,
  };
}

export interface RawPaymentLine {
  /** 1-based: the CSV row, or the transaction's position in a pain.001 file. */
  lineNumber: number;
  /** Where the whole line is: { row } for CSV, { path } of the CdtTrfTxInf for pain.001. */
  location: IssueLocation;
  fields: RawFields;
  /** pain.001 BtchBookg of the line's PmtInf, already read as a boolean by the reader. */
  batchBooking?: boolean;
  /** Problems the reader found in this line (e.g. a wrong field count); an error here makes the line invalid. */
  issues?: Issue[];
  /** Key of the control block (pain.001 PmtInf path) the line's amount counts towards. */
  block?: string;
  /** pain.001 PmtInfId of the line's block, as written (kept for the pain.002 status report). */
  paymentInformationId?: string;
}
