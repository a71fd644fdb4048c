// One generated file per rule (test/fixtures/intake/rules/<rule>.*): each breaks exactly one
// rule of an otherwise valid file, and must yield that rule's issue, located, and nothing else.
import { describe, expect, it } from 'vitest';
import { check } from './helpers.js';

const csvRules: [file: string, code: string, field: string | undefined, column: number | undefined][] = [
  ['iban-mod97.csv', 'IBAN_INVALID', 'creditorIban', 7],
  ['iban-country-length.csv', 'IBAN_INVALID', 'creditorIban', 7],
  ['bic-form.csv', 'BIC_INVALID', 'creditorBic', 9],
  ['currency-unknown.csv', 'CURRENCY_INVALID', 'currency', 6],
  ['amount-precision.csv', 'AMOUNT_PRECISION', 'amount', 5],
  ['amount-precision-jpy.csv', 'AMOUNT_PRECISION', 'amount', 5],
  ['amount-syntax.csv', 'AMOUNT_SYNTAX', 'amount', 5],
  ['amount-zero.csv', 'AMOUNT_NOT_POSITIVE', 'amount', 5],
  ['amount-negative.csv', 'AMOUNT_NOT_POSITIVE', 'amount', 5],
  ['execution-date-invalid.csv', 'EXECUTION_DATE_INVALID', 'requestedExecutionDate', 3],
  ['execution-date-past.csv', 'EXECUTION_DATE_PAST', 'requestedExecutionDate', 3],
  ['e2e-missing.csv', 'E2E_MISSING', 'endToEndId', 4],
  ['e2e-too-long.csv', 'E2E_TOO_LONG', 'endToEndId', 4],
  ['name-missing.csv', 'NAME_MISSING', 'creditorName', 8],
  ['name-too-long.csv', 'NAME_TOO_LONG', 'creditorName', 8],
  ['remittance-too-long.csv', 'REMITTANCE_TOO_LONG', 'remittanceInformation', 10],
  ['charset-identifier.csv', 'CHARSET_INVALID', 'endToEndId', 4],
  ['creditor-reference-rf.csv', 'CREDITOR_REFERENCE_INVALID', 'creditorReference', 11],
  ['priority-invalid.csv', 'PRIORITY_INVALID', 'instructionPriority', 12],
  ['csv-column-count.csv', 'CSV_COLUMN_COUNT', undefined, undefined],
  ['csv-columns-missing.csv', 'CSV_COLUMNS_MISSING', undefined, undefined],
  ['file-empty.csv', 'FILE_EMPTY', undefined, undefined],
];

describe('rule fixtures (CSV, generic profile)', () => {
  it.each(csvRules)('%s yields exactly one %s error at its field and column', async (file, code, field, column) => {
    const r = await check(`rules/${file}`);
    expect(r.valid).toBe(false);
    expect(r.issues.filter((i) => i.severity === 'error').map((i) => i.code)).toEqual([code]);
    const issue = r.issues.find((i) => i.code === code)!;
    expect(issue.field).toBe(field);
    if (column !== undefined) expect(issue.location).toEqual({ row: 2, column });
    expect(r.paymentsSeen).toHaveLength(0);
  });

  it('a weekend execution date is a warning under the flag policy and the payment stays valid', async () => {
    const r = await check('rules/execution-date-weekend.csv');
    expect(r.valid).toBe(true);
    expect(r.issues).toMatchObject([
      { code: 'EXECUTION_DATE_NOT_BUSINESS_DAY', severity: 'warning', location: { row: 2, column: 3 } },
    ]);
  });

  it('a Norwegian holiday (Ascension Day 2026-05-14) is moved to the next business day under the move policy', async () => {
    const r = await check('rules/execution-date-holiday.csv', 'generic', { nonBusinessDayPolicy: 'move' });
    expect(r.codes).toEqual(['EXECUTION_DATE_MOVED']);
    expect(r.issues[0]!.message).toContain('Kristi himmelfartsdag');
    expect(r.paymentsSeen[0]!.requestedExecutionDate).toBe('2026-05-15');
  });

  it('a holiday execution date is an error under the reject policy', async () => {
    const r = await check('rules/execution-date-holiday.csv', 'generic', { nonBusinessDayPolicy: 'reject' });
    expect(r.issues).toMatchObject([{ code: 'EXECUTION_DATE_NOT_BUSINESS_DAY', severity: 'error' }]);
    expect(r.valid).toBe(false);
  });

  it('an amount above the configured maximum is refused, one below it is not', async () => {
    const over = await check('rules/amount-maximum.csv', 'generic', { maxAmount: { NOK: '1000000.00' } });
    expect(over.codes).toEqual(['AMOUNT_ABOVE_MAXIMUM']);
    const under = await check('rules/amount-maximum.csv', 'generic', { maxAmount: { '*': '5000000' } });
    expect(under.valid).toBe(true);
  });

  it('an end-to-end id used twice in the file is an error on the second line, naming the first', async () => {
    const r = await check('rules/e2e-duplicate-in-file.csv');
    expect(r.issues).toMatchObject([{ code: 'E2E_DUPLICATE_IN_FILE', location: { row: 3, column: 4 } }]);
    expect(r.issues[0]!.message).toContain('line 2');
    expect(r.paymentsSeen.map((p) => p.lineNumber)).toEqual([2]);
  });

  it('an end-to-end id accepted before (an injected lookup, sync or async) is refused', async () => {
    const known = new Set(['E2E-ACCEPTED-BEFORE']);
    const sync = await check('rules/e2e-already-accepted.csv', 'generic', { alreadyAccepted: (id) => known.has(id) });
    expect(sync.codes).toEqual(['E2E_ALREADY_ACCEPTED']);
    const async_ = await check('rules/e2e-already-accepted.csv', 'generic', {
      alreadyAccepted: (id) => Promise.resolve(known.has(id)),
    });
    expect(async_.codes).toEqual(['E2E_ALREADY_ACCEPTED']);
    const fresh = await check('valid/generic.csv', 'generic', { alreadyAccepted: (id) => known.has(id) });
    expect(fresh.valid).toBe(true);
  });

  it('a debtor account outside the onboarded set is refused only when the set is known', async () => {
    const accounts = new Set(['NO9386011117947']);
    const r = await check('rules/debtor-not-onboarded.csv', 'generic', { onboardedDebtorAccounts: accounts });
    expect(r.issues).toMatchObject([
      { code: 'DEBTOR_ACCOUNT_NOT_ONBOARDED', field: 'debtorIban', location: { row: 2, column: 1 } },
    ]);
    expect((await check('rules/debtor-not-onboarded.csv')).valid).toBe(true);
  });

  it('characters outside the EPC set are transliterated in names and text, and every change is reported with before and after', async () => {
    const r = await check('rules/charset-transliterated.csv');
    expect(r.valid).toBe(true);
    expect(r.issues.map((i) => [i.code, i.field])).toEqual([
      ['CHARSET_TRANSLITERATED', 'creditorName'],
      ['CHARSET_TRANSLITERATED', 'remittanceInformation'],
    ]);
    expect(r.issues[0]!.message).toContain('"Müller & Söhne" → "Muller + Sohne"');
    expect(r.paymentsSeen[0]!.creditorName).toBe('Muller + Sohne');
  });

  it('an unclosed quote is a located CSV_MALFORMED issue, not a crash', async () => {
    const r = await check('rules/csv-malformed-quote.csv');
    expect(r.codes).toContain('CSV_MALFORMED');
    expect(r.issues.find((i) => i.code === 'CSV_MALFORMED')!.location.row).toBeGreaterThanOrEqual(2);
  });

  it('finds every issue of a file with many broken rows in one pass', async () => {
    const r = await check('rules/many-rules.csv');
    expect(r.issues.map((i) => `${i.location.row}:${i.code}`)).toEqual([
      '3:IBAN_INVALID',
      '3:AMOUNT_PRECISION',
      '4:CURRENCY_INVALID',
      '4:EXECUTION_DATE_PAST',
      '4:E2E_DUPLICATE_IN_FILE',
      '5:NAME_MISSING',
    ]);
    expect(r.payments).toBe(4);
    expect(r.validPayments).toBe(1);
  });
});

describe('rule fixtures (pain.001)', () => {
  const xmlRules: [file: string, code: string, path: string][] = [
    ['nboftxs-group.xml', 'NBOFTXS_MISMATCH', '/Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs'],
    ['ctrlsum-group.xml', 'CTRLSUM_MISMATCH', '/Document/CstmrCdtTrfInitn/GrpHdr/CtrlSum'],
    ['nboftxs-pmtinf.xml', 'NBOFTXS_MISMATCH', '/Document/CstmrCdtTrfInitn/PmtInf[1]/NbOfTxs'],
    ['ctrlsum-pmtinf.xml', 'CTRLSUM_MISMATCH', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CtrlSum'],
    ['ctrlsum-invalid.xml', 'CONTROL_VALUE_INVALID', '/Document/CstmrCdtTrfInitn/GrpHdr/CtrlSum'],
    ['batch-booking-invalid.xml', 'XML_VALUE_INVALID', '/Document/CstmrCdtTrfInitn/PmtInf[1]/BtchBookg'],
    ['amount-precision.xml', 'AMOUNT_PRECISION', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt'],
    [
      'instruction-id-too-long.xml',
      'INSTRUCTION_ID_TOO_LONG',
      '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/PmtId/InstrId',
    ],
    ['xml-version-unsupported.xml', 'XML_VERSION_UNSUPPORTED', '/Document'],
    ['xml-camt053.xml', 'XML_NOT_PAIN001', '/Document'],
    ['xml-not-pain001.xml', 'XML_NOT_PAIN001', '/Invoice'],
  ];
  it.each(xmlRules)('%s yields %s at %s', async (file, code, path) => {
    const r = await check(`rules/${file}`);
    expect(r.valid).toBe(false);
    expect(r.issues.filter((i) => i.severity === 'error').map((i) => [i.code, i.location.path])).toEqual([
      [code, path],
    ]);
  });

  it('a bad debtor IBAN of a PmtInf is reported once for the block, and none of its transactions is valid', async () => {
    const r = await check('rules/iban-mod97-debtor.xml');
    expect(r.issues).toMatchObject([
      {
        code: 'IBAN_INVALID',
        field: 'debtorIban',
        location: { path: '/Document/CstmrCdtTrfInitn/PmtInf[1]/DbtrAcct/Id/IBAN' },
      },
    ]);
    expect(r.payments).toBe(2);
    expect(r.validPayments).toBe(0);
  });

  it.each(['xml-dtd-xxe.xml', 'xml-dtd-billion-laughs.xml'])(
    '%s is refused with ERR_XML_DTD_FORBIDDEN before any entity is read',
    async (file) => {
      const started = performance.now();
      const r = await check(`rules/${file}`);
      expect(r.codes).toEqual(['ERR_XML_DTD_FORBIDDEN']);
      expect(r.payments).toBe(0);
      expect(performance.now() - started).toBeLessThan(2000);
    },
  );

  it('an undefined entity and a broken closing tag are located XML_MALFORMED issues', async () => {
    const entity = await check('rules/xml-undefined-entity.xml');
    expect(entity.issues).toMatchObject([{ code: 'XML_MALFORMED', location: { row: 5 } }]);
    const broken = await check('rules/xml-malformed.xml');
    expect(broken.codes).toEqual(['XML_MALFORMED']);
    expect(broken.valid).toBe(false);
  });
});
