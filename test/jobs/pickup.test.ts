import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Database } from '../../src/store/database.js';
import { PaymentRepository } from '../../src/store/payments.js';
import { ReportRepository } from '../../src/store/reports.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const line = (e2e: string, amount = '100.00', date = '2026-01-07', creditor = 'NO0612000000009') =>
  `NO9386011117947,ACME AS,${date},${e2e},${amount},NOK,${creditor},Leverandor AS`;
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n') + '\n';

describe('the pickup job', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let deps: PickupDeps;
  let company: CompanyConfig;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock('2026-01-05T09:00:00Z'); // a Monday
    ({ dir, cleanup } = await makeTempDir());
    ({ db, deps, company } = await openPickupWorld(dir, clock));
  });

  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  const drop = (name: string, content: string) => writeFile(join(company.root, 'inbox', name), content);
  const folder = (sub: string) => readdir(join(company.root, sub)).catch(() => [] as string[]);

  it('stores a valid file with its payments and archives the original under the day it arrived', async () => {
    await drop('pay-1.csv', csv(line('E2E-1'), line('E2E-2', '250.50')));
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 2, movedTo: 'archive/2026-01-05/pay-1.csv' });
    expect(await folder('inbox')).toEqual([]);
    expect(await folder('archive/2026-01-05')).toEqual(['pay-1.csv']);
    const [file] = await deps.ledger.listFiles({ company: 'acme' });
    expect(file).toMatchObject({ state: 'accepted', acceptedCount: 2, fileName: 'pay-1.csv' });
    const stored = await new PaymentRepository(db, clock).listByFile(file!.id);
    expect(stored.map((p) => [p.endToEndId, p.amount.minor])).toEqual([
      ['E2E-1', 10000n],
      ['E2E-2', 25050n],
    ]);
  });

  it('rejects a bad file whole, moves it to error/ with a report for people and one for machines', async () => {
    await drop(
      'bad.csv',
      csv(line('E2E-1'), line('E2E-2', '10.005'), line('E2E-3', '5.00', '2026-01-07', 'NO0612000000008')),
    );
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({
      outcome: 'rejected',
      payments: 0,
      movedTo: 'error/bad.csv',
      report: 'error/bad.csv.errors.txt',
    });
    expect((await folder('error')).sort()).toEqual([
      'bad.csv',
      'bad.csv.errors.html',
      'bad.csv.errors.json',
      'bad.csv.errors.txt',
    ]);
    const text = await readFile(join(company.root, 'error/bad.csv.errors.txt'), 'utf8');
    // It opens with what happened to the file and what to do, in the accountant's words.
    expect(text.split('\n')[0]).toBe(
      'NOTHING FROM THIS FILE WAS SENT: no payment of it goes to the bank. Correct the problems below in the ERP, then drop the whole corrected file again.',
    );
    expect(text).toContain('row 3');
    expect(text).toContain('row 4');
    const json = JSON.parse(await readFile(join(company.root, 'error/bad.csv.errors.json'), 'utf8')) as {
      issues: { code: string; location: { row: number } }[];
    };
    expect(json.issues.map((i) => i.location.row).sort()).toEqual([3, 4]);
    const [file] = await deps.ledger.listFiles({ company: 'acme' });
    expect(file).toMatchObject({ state: 'rejected', acceptedCount: 0 });
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-1'])).toBe(false);
    // Recorded for the console, which links it by this id and never by the path.
    const reports = new ReportRepository(db, clock);
    const [recorded] = await reports.about('acme', { type: 'payment_file', id: file!.id });
    expect(recorded).toMatchObject({ kind: 'error', name: 'bad.csv.errors.txt', mediaType: 'text/plain' });
    expect((await reports.find('acme', recorded!.id))?.content).toBe(text);
    expect(await reports.find('beta', recorded!.id)).toBeUndefined();
  });

  it('accepts the valid lines when the company allows it, and reports the others', async () => {
    const lenient = { ...company, intake: { ...company.intake, acceptValidLines: true } };
    await drop('mixed.csv', csv(line('E2E-1'), line('E2E-2', '-3.00')));
    const [picked] = await runPickup(deps, [lenient]);
    expect(picked).toMatchObject({ outcome: 'partially-accepted', payments: 1, report: 'error/mixed.csv.errors.txt' });
    const report = await readFile(join(company.root, 'error/mixed.csv.errors.txt'), 'utf8');
    expect(report.split('\n')[0]).toBe(
      'PART OF THIS FILE WAS ACCEPTED: 1 of 2 payment(s) will be sent; the 1 line(s) with errors below were not. Correct those lines in the ERP and send only them, in a new file: the whole file again would repeat the accepted ones.',
    );
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-1'])).toBe(true);
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-2'])).toBe(false);
  });

  it('never processes the same bytes twice: a re-dropped file is reported as a duplicate', async () => {
    const content = csv(line('E2E-1'));
    await drop('pay.csv', content);
    await runPickup(deps, [company]);
    clock.advance(86_400_000);
    await drop('pay-again.csv', content);
    await drop('pay.csv', content);
    const picked = await runPickup(deps, [company]);
    expect(picked.map((p) => [p.name, p.outcome])).toEqual([
      ['pay-again.csv', 'duplicate'],
      ['pay.csv', 'duplicate'],
    ]);
    expect((await deps.ledger.listFiles({ company: 'acme' })).length).toBe(1);
    const report = await readFile(join(company.root, 'error/pay-again.csv.errors.txt'), 'utf8');
    expect(report).toMatch(/DUPLICATE.*\n.*"pay.csv" that was accepted/);
  });

  it('validates a rejected file dropped again anew: once the bank side is fixed it is accepted, and only once', async () => {
    const content = csv(line('E2E-R1'));
    let enabled = false;
    const checked: PickupDeps = {
      ...deps,
      debtorAccounts: () =>
        Promise.resolve((iban: string) =>
          enabled ? undefined : { message: `debtor account ${iban} is disabled, not enabled yet` },
        ),
    };
    await drop('pay.csv', content);
    expect((await runPickup(checked, [company])).map((p) => p.outcome)).toEqual(['rejected']);
    // Dropped again unchanged while the account is still disabled: rejected again, not "already seen".
    await drop('pay.csv', content);
    const second = await runPickup(checked, [company]);
    expect(second).toMatchObject([
      { outcome: 'rejected', report: expect.stringMatching(/^error\/pay\..*\.csv\.errors\.txt$/) },
    ]);
    expect(await readFile(join(company.root, second[0]!.report!), 'utf8')).toContain('not enabled yet');
    enabled = true;
    await drop('pay.csv', content);
    expect(await runPickup(checked, [company])).toMatchObject([{ outcome: 'accepted', payments: 1 }]);
    await drop('pay.csv', content);
    expect(await runPickup(checked, [company])).toMatchObject([{ outcome: 'duplicate', payments: 0 }]);
    const files = await deps.ledger.listFiles({ company: 'acme' });
    expect(files.map((f) => [f.state, f.supersededBy === undefined])).toEqual([
      ['rejected', false],
      ['rejected', false],
      ['accepted', true],
    ]);
    expect(await deps.ledger.isEndToEndIdKnown('acme', ['E2E-R1'])).toBe(true);
  });

  it('refuses a payment whose end-to-end id was accepted in an earlier file', async () => {
    await drop('one.csv', csv(line('E2E-1')));
    await runPickup(deps, [company]);
    await drop('two.csv', csv(line('E2E-1', '999.00')));
    const [picked] = await runPickup(deps, [company]);
    expect(picked?.outcome).toBe('rejected');
    expect(await readFile(join(company.root, 'error/two.csv.errors.txt'), 'utf8')).toContain('already accepted');
  });

  it('heals a crash between the ledger commit and the move: the file is archived, not processed again', async () => {
    const content = csv(line('E2E-1'));
    await drop('pay.csv', content);
    // Simulate the crash: the commit happened (as pickup would), the move did not.
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(content).digest('hex');
    await deps.ledger.recordAcceptedFile(
      {
        company: 'acme',
        fileName: 'pay.csv',
        sha256,
        format: 'csv:generic',
        sizeBytes: content.length,
        receivedAt: clock.now(),
      },
      [],
    );
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'healed', movedTo: 'archive/2026-01-05/pay.csv' });
    expect(await folder('inbox')).toEqual([]);
    expect((await deps.ledger.listFiles({ company: 'acme' })).length).toBe(1);
  });

  it('keeps the pain.001 message id, so status reports can quote it back to the ERP', async () => {
    await writeFile(join(company.root, 'inbox', 'suppliers.xml'), await readFile('samples/erp/acme-suppliers.xml'));
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 3 });
    const [file] = await deps.ledger.listFiles({ company: 'acme' });
    expect(file).toMatchObject({ format: 'pain.001.001.09', messageId: 'ACME-SUPPLIERS-2026-01-05' });
  });

  it('leaves files that are still being written, or carry a temporary suffix, in the inbox', async () => {
    await drop('upload.csv.part', csv(line('E2E-1')));
    await drop('notes.txt', 'not a payment file');
    expect(await runPickup(deps, [company])).toEqual([]);
    expect((await folder('inbox')).sort()).toEqual(['notes.txt', 'upload.csv.part']);
  });
});
