// The shared third-party samples (test/fixtures/intake/third-party/README.md says where each
// comes from and why it is or is not valid for settle). Dates are judged as on 2010-01-01 so
// that the old sample dates do not hide the other findings.
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../../../src/domain/local-date.js';
import { check } from './helpers.js';

const expected: [file: string, valid: boolean, errorCodes: string[]][] = [
  [
    'pain001/dvbern__pain001_v00103ch02_TestReference.xml',
    false,
    ['ELEMENT_UNSUPPORTED', 'PAYMENT_METHOD_UNSUPPORTED'],
  ],
  ['pain001/iso20022js__cross_river_pain_001_rtp_credit.xml', false, ['ELEMENT_UNSUPPORTED', 'IBAN_INVALID']],
  ['pain001/iso20022js__example_sepa_pain_001_v3.xml', false, ['IBAN_INVALID']],
  [
    'pain001/iso20022js__example_sepa_pain_001_v3_multiple_pmtinf.xml',
    false,
    ['CTRLSUM_MISMATCH', 'E2E_DUPLICATE_IN_FILE', 'IBAN_INVALID', 'NBOFTXS_MISMATCH'],
  ],
  ['pain001/iso20022js__example_swift_pain_001_v3.xml', false, ['ELEMENT_UNSUPPORTED', 'IBAN_INVALID']],
  [
    'pain001/iso20022js__goldman_sachs_pain_001_ach_credit.xml',
    false,
    ['CTRLSUM_MISMATCH', 'ELEMENT_UNSUPPORTED', 'EXECUTION_DATE_INVALID', 'IBAN_INVALID'],
  ],
  ['pain001/moov__International_payment_USD_naujas_1.xml', false, ['IBAN_INVALID']],
  ['pain001/moov__sepa_payment_naujas_1.xml', false, ['IBAN_INVALID']],
  ['pain001/pain001py__pain.001.001.03.xml', false, ['ELEMENT_UNSUPPORTED', 'IBAN_INVALID', 'NBOFTXS_MISMATCH']],
  ['pain001/pain001py__pain.001.001.09.xml', false, ['ELEMENT_UNSUPPORTED', 'IBAN_INVALID', 'NBOFTXS_MISMATCH']],
  ['pain001/phpsepaxml__pain.001.001.03.xml', false, ['IBAN_INVALID']],
  ['pain001/phpsepaxml__pain.001.001.08.xml', false, ['IBAN_INVALID']],
  ['pain001/phpsepaxml__pain.001.001.09.xml', false, ['IBAN_INVALID']],
  ['pain001/sepafileparser__pain001_valid_example.xml', true, []],
  ['pain001/sepafileparser__pain001_valid_example_v9.xml', true, []],
  ['pain001/sepaking__pain.001.001.03.ch.02.xml', false, ['ELEMENT_UNSUPPORTED', 'IBAN_INVALID', 'NAME_MISSING']],
  ['pain001/sepaking__pain.001.001.03.xml', true, []],
  ['csv/csv2sepa__transactions-template.csv', false, ['CSV_COLUMNS_MISSING']],
  ['csv/oca-ap__test_payment_import.csv', false, ['CSV_COLUMNS_MISSING']],
  ['csv/oca-bsi__debit_credit_amount.csv', false, ['CSV_COLUMNS_MISSING']],
  ['csv/oca-bsi__sample_statement_en.csv', false, ['CSV_COLUMNS_MISSING']],
  [
    'csv/pain001py__template_001_03.csv',
    false,
    ['CTRLSUM_MISMATCH', 'ELEMENT_UNSUPPORTED', 'IBAN_INVALID', 'NBOFTXS_MISMATCH'],
  ],
];

describe('third-party samples', () => {
  it.each(expected)('%s: valid=%s, errors %j', async (file, valid, codes) => {
    const profile = file === 'csv/pain001py__template_001_03.csv' ? 'pain001py' : 'generic';
    const r = await check(`third-party/${file}`, profile, { asOf: '2010-01-01' as LocalDate });
    expect(r.valid).toBe(valid);
    expect([...new Set(r.issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort()).toEqual(codes);
  });

  it('reads the version of every pain.001 sample from its namespace', async () => {
    const versions = await Promise.all(
      [
        'dvbern__pain001_v00103ch02_TestReference.xml',
        'phpsepaxml__pain.001.001.08.xml',
        'pain001py__pain.001.001.09.xml',
        'sepaking__pain.001.001.03.xml',
      ].map(async (f) => (await check(`third-party/pain001/${f}`)).format),
    );
    expect(versions).toEqual(['pain.001.001.03.ch.02', 'pain.001.001.08', 'pain.001.001.09', 'pain.001.001.03']);
  });

  it('the pain001py CSV template, read with its profile, yields the same amounts as its pain.001 twin', async () => {
    const csv = await check('third-party/csv/pain001py__template_001_03.csv', 'pain001py', {
      asOf: '2010-01-01' as LocalDate,
    });
    const xml = await check('third-party/pain001/pain001py__pain.001.001.03.xml', 'generic', {
      asOf: '2010-01-01' as LocalDate,
    });
    expect(csv.payments).toBe(4);
    expect(csv.totals).toEqual(xml.totals);
  });
});
