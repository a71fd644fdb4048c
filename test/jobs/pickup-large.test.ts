// Pickup of a file longer than one of the ledger's receiving batches (RECEIVE_BATCH lines): the
// payments go into the store a batch at a time, in the file's one transaction, so the whole file
// is stored or none of it, and a file's own earlier batches are not taken for another file's.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Database } from '../../src/store/database.js';
import { RECEIVE_BATCH } from '../../src/store/file-ledger.js';
import { PaymentRepository } from '../../src/store/payments.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const CREDITORS = ['NO0612000000009', 'DE89370400440532013000', 'GB29NWBK60161331926819'];
/** Line i pays creditor i mod 3 the amount i.00 for invoice i: no two lines alike unless asked. */
const line = (i: number, { amount = `${i}.00`, invoice = `Invoice ${i}` } = {}) =>
  `NO9386011117947,ACME AS,2026-01-07,E2E-${i},${amount},NOK,${CREDITORS[i % 3]},Creditor AS,${invoice}`;
const csv = (lines: string[]) => [HEADER, ...lines].join('\n') + '\n';
const LINES = Math.round(RECEIVE_BATCH * 2.5);

describe('pickup of a file longer than a receiving batch', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let deps: PickupDeps;
  let company: CompanyConfig;

  beforeEach(async () => {
    const clock = new ManualClock('2026-01-05T09:00:00Z');
    ({ dir, cleanup } = await makeTempDir());
    ({ db, deps, company } = await openPickupWorld(dir, clock));
  });

  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  const drop = (name: string, lines: string[]) => writeFile(join(company.root, 'inbox', name), csv(lines));
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

  it('stores every line with the file’s counts and totals; its own lines across batches are not held as duplicates', async () => {
    // Line LINES repeats line 3's creditor, amount and invoice: alike, but in the same file.
    const lines = range(1, LINES).map((i) =>
      i === LINES ? line(i, { amount: '3.00', invoice: 'Invoice 3' }) : line(i),
    );
    await drop('big.csv', lines);
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: LINES });
    expect(picked!.held).toBeUndefined();
    const [file] = await deps.ledger.listFiles({ company: 'acme' });
    const sum = range(1, LINES - 1).reduce((s, i) => s + BigInt(i) * 100n, 0n) + 300n;
    expect(file).toMatchObject({
      state: 'accepted',
      format: 'csv:generic',
      lineCount: LINES,
      acceptedCount: LINES,
      rejectedCount: 0,
      totals: { NOK: sum.toString() },
    });
    const stored = await new PaymentRepository(db, deps.clock).listByFile(file!.id);
    expect(stored.map((p) => p.lineNumber)).toEqual(range(2, LINES + 1));
    expect(stored.every((p) => p.state === 'accepted')).toBe(true);
  });

  it('holds a later file’s line like one in any batch of an earlier file, with its line in the report', async () => {
    await drop(
      'first.csv',
      range(1, LINES).map((i) => line(i)),
    );
    await runPickup(deps, [company]);
    // E2E-9003 (the same creditor: 9003 ≡ LINES - 1 mod 3) pays what line LINES - 1 (in the first file's last batch) paid: a likely duplicate.
    await drop('again.csv', [line(9001), line(9003, { amount: `${LINES - 1}.00`, invoice: `Invoice ${LINES - 1}` })]);
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 2, held: 1 });
    const report = await import('node:fs/promises').then((fs) =>
      fs.readFile(join(company.root, 'error/again.csv.errors.txt'), 'utf8'),
    );
    expect(report).toContain('"E2E-9003" (line 3) is held');
  });

  it('stores nothing of a file whose error comes after batches were written, and records it rejected', async () => {
    const lines = range(1, LINES).map((i) => (i === LINES ? line(i, { amount: '-1.00' }) : line(i)));
    await drop('late-error.csv', lines);
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'rejected', payments: 0 });
    const files = await deps.ledger.listFiles({ company: 'acme' });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ state: 'rejected', lineCount: LINES, format: 'csv:generic' });
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-1', `E2E-${RECEIVE_BATCH}`])).toBe(false);
  });

  it('refuses, across batches, an end-to-end id an earlier file used', async () => {
    await drop('first.csv', [line(LINES - 10)]);
    await runPickup(deps, [company]);
    await drop(
      'second.csv',
      range(1, LINES).map((i) => line(i)),
    );
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'rejected' });
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-1'])).toBe(false);
  });
});
