// Every column of a CSV file is carried, checked or ignored with why: the pain001py profile's
// columns that change what is paid (payment method, charge bearer, the currency paid in, the
// control totals every row repeats) are refused at their row and column when they say what
// settle cannot carry, and a column no profile names is refused at the header (fixture:
// test/fixtures/intake/pain001py/README.md).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, FIXTURES, PROFILES, validation } from '../intake/helpers.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';

let dir: string;
let rows: string[][];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'settle-columns-'));
  rows = (await readFile(`${FIXTURES}pain001py/valid.csv`, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => l.split(','));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The valid file with `column` of data row `row` (1-based) set to `value`. */
async function variant(changes: [column: string, row: number, value: string][], header?: string[]) {
  const copy = rows.map((r) => [...r]);
  for (const [column, row, value] of changes) copy[row]![copy[0]!.indexOf(column)] = value;
  if (header) copy[0] = header;
  const file = join(dir, `v${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, copy.map((r) => r.join(',')).join('\n') + '\n');
  const profile = await loadProfile('pain001py', [PROFILES]);
  const seen: PaymentInstruction[] = [];
  const r = await validateFile(file, { profile, validation: validation(), onPayment: (p) => void seen.push(p) });
  const errors = r.issues.filter((i) => i.severity === 'error').map((i) => [i.code, i.location.row, i.location.column]);
  return { ...r, errors, seen };
}

describe('the pain001py profile: every one of its 42 columns', () => {
  it('accepts the valid file and carries its payment columns, the currency paid in and the purpose', async () => {
    const r = await check('pain001py/valid.csv', 'pain001py');
    expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(r.paymentsSeen.map((p) => [p.endToEndId, p.amount, p.creditorBic, p.purpose])).toEqual([
      ['PY-E2E-1', { minor: 125050n, currency: 'NOK' }, 'DNBANOKKXXX', 'SUPP'],
      ['PY-E2E-2', { minor: 10000n, currency: 'NOK' }, undefined, undefined],
    ]);
  });

  it.each([
    ['CHK', 'PAYMENT_METHOD_UNSUPPORTED'],
    ['TRA', 'PAYMENT_METHOD_UNSUPPORTED'],
  ])('refuses payment_method %s at its row and column, not as an ordinary transfer', async (value, code) => {
    const r = await variant([['payment_method', 2, value]]);
    expect(r.errors).toEqual([[code, 3, 11]]);
    expect(r.seen.map((p) => p.endToEndId)).toEqual(['PY-E2E-1']);
  });

  it.each(['CRED', 'DEBT'])('refuses charge_bearer %s at its row and column', async (value) => {
    const r = await variant([['charge_bearer', 1, value]]);
    expect(r.errors).toEqual([['ELEMENT_UNSUPPORTED', 2, 22]]);
    expect(r.issues[0]?.message).toContain(`charge_bearer "${value}" is not accepted`);
  });

  it('refuses a currency column that says EUR when payment_currency, the currency paid, says USD', async () => {
    const r = await variant([
      ['currency', 1, 'EUR'],
      ['payment_currency', 1, 'USD'],
    ]);
    expect(r.errors).toEqual([['COLUMNS_DISAGREE', 2, 25]]);
    expect(r.issues[0]?.message).toBe(
      'currency "EUR" differs from payment_currency "USD": the tool pays in payment_currency; a currency column that says otherwise leaves it unclear what is to be paid',
    );
    expect(r.seen.map((p) => p.endToEndId)).toEqual(['PY-E2E-2']);
  });

  it('checks nb_of_txs and ctrl_sum, which every row repeats, against the file', async () => {
    const r = await variant([
      ['nb_of_txs', 2, '3'],
      ['ctrl_sum', 1, '1350.00'],
    ]);
    // One issue per value that differs, at the first row that has it, in the order they were met.
    expect(r.errors).toEqual([
      ['CTRLSUM_MISMATCH', 2, 27],
      ['NBOFTXS_MISMATCH', 3, 3],
    ]);
    expect(r.issues.filter((i) => i.severity === 'error').map((i) => i.message)).toEqual([
      'CtrlSum of the column ctrl_sum says 1350.00; the amounts add up to 1350.50',
      'NbOfTxs of the column nb_of_txs says 3 payments; the file holds 2',
    ]);
  });

  it('refuses a column the profile does not name, at the header, and reads no row', async () => {
    const header = [...rows[0]!];
    header[header.indexOf('forwarding_agent_BIC')] = 'exchange_rate';
    const r = await variant([], header);
    expect(r.errors).toEqual([['CSV_COLUMN_UNLISTED', 1, 40]]);
    expect(r.payments).toBe(0);
  });
});
