// The reconcile job with a receivables folder: the ERP's open receivables are imported once,
// credits on the company's accounts are matched to them, a near miss becomes a proposal that a
// person confirms (and that stays confirmed until its facts change), and a bad file is refused
// with a located report.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcile, type ReconcileDeps } from '../../jobs/reconcile/reconcile.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../src/domain/reconcile/index.js';
import { silentLogger } from '../../src/log/index.js';
import { receivablesProfileLoader } from '../../src/main/profiles.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { LocalFileStore } from '../../src/transport/index.js';
import { makeTempDir } from '../support/tmp.js';

const ACCOUNT = 'NO9386011117947';

const OPEN_ITEMS = [
  'Invoice,Customer,Amount,Currency,Reference,Due date',
  'INV-1001,Kunde Nord AS,12500.00,NOK,1002003018,2026-01-10',
  'INV-1002,Kunde Sør AS,50000.00,NOK,1002003026,2026-01-12',
  'INV-1003,Kunde Vest AS,7800.50,NOK,,2026-01-09',
  'INV-1004,Kunde Øst AS,999.00,NOK,,2026-01-20',
  '',
].join('\r\n');

describe('the reconcile job with receivables', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let store: Store;
  let clock: ManualClock;
  let company: CompanyConfig;
  let deps: ReconcileDeps;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    clock = new ManualClock('2026-01-12T09:00:00Z');
    db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    await db.migrate();
    store = createStore(db, clock);
    company = configSchema.parse({
      companies: [
        {
          id: 'acme',
          name: 'ACME AS',
          organisationNumber: '999999999',
          root: join(dir, 'acme'),
          folders: { receivables: 'receivables' },
          reconcile: { since: '2026-01-05' },
        },
      ],
    }).companies[0]!;
    deps = {
      store,
      clock,
      logger: silentLogger(),
      timeZone: 'Europe/Oslo',
      runId: 'run-1',
      config: DEFAULT_RECONCILE_CONFIG,
      lookBackDays: 31,
      fileStore: () => Promise.resolve(new LocalFileStore(company.root)),
      receivablesProfile: receivablesProfileLoader([join(process.cwd(), 'config/profiles')]),
      sleep: () => Promise.resolve(),
    };
    await mkdir(join(company.root, 'receivables'), { recursive: true });
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: ACCOUNT, currency: 'NOK' });
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  /** Credits on the company account: [bank id, minor units, date, payer, remittance]. */
  async function credit(rows: [string, bigint, string, string, string?][]): Promise<void> {
    await store.statements.upsertTransactions(
      'acc-1',
      rows.map(([id, minor, date, payer, remittance]) => ({
        bankTransactionId: id,
        status: 'booked' as const,
        amount: { minor, currency: 'NOK' },
        bookingDate: toLocalDate(date),
        counterpartyName: payer,
        counterpartyIban: 'NO6315061111112',
        ...(remittance ? { remittance } : {}),
      })),
    );
  }

  it('imports the file once, matches credits by reference and by name, and reports part payments, proposals and strangers', async () => {
    await writeFile(join(company.root, 'receivables', 'open-items.csv'), OPEN_ITEMS);
    await credit([
      ['c-ref', 1_250_000n, '2026-01-09', 'Someone Paying For Nord', 'KID 1002003018'],
      ['c-part', 2_000_000n, '2026-01-10', 'Kunde Sør AS', 'Faktura 1002 KID 1002003026'],
      ['c-near', 780_050n, '2026-01-09', 'Kunde Vestland AS', 'Faktura 1003'],
      ['c-none', 12_345n, '2026-01-11', 'Ukjent Betaler', 'Gave'],
    ]);
    const [result] = await runReconcile(deps, [company]);
    expect(result!.receivablesFiles).toEqual([
      expect.objectContaining({
        outcome: 'imported',
        receivables: 4,
        movedTo: 'archive/receivables/2026-01-12/open-items.csv',
      }),
    ]);
    expect(await readdir(join(company.root, 'receivables'))).toEqual([]);
    const counts = Object.fromEntries(result!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    expect(counts).toEqual({ match_proposed: 1, unmatched_credit: 1, credit_partial: 1, credit_matched: 1 });
    expect(result!.summary.needingPerson).toBe(2);

    const csv = await readFile(join(company.root, result!.csv), 'utf8');
    const row = (payer: string) => csv.split('\r\n').find((l) => l.includes(payer))!;
    expect(row('Someone Paying For Nord')).toMatch(
      /^credit_matched,info,no,.*,creditor-reference,.*,INV-1001,KID 1002003018,KID 1002003018,100,/,
    );
    expect(row('Kunde Sør AS')).toMatch(/^credit_partial,.*stays open \(provisional.*,INV-1002,.*,under_amount$/);
    expect(row('Kunde Vestland AS')).toMatch(
      /^match_proposed,warning,yes,.*amount-customer-date.*,INV-1003,.*,data_mismatch$/,
    );
    const html = await readFile(join(company.root, result!.html), 'utf8');
    expect(html).toContain('Incoming payments matched to receivables (1)');
    expect(html).toContain('Credits were matched to 4 open receivables.');

    // The same bytes again are not imported twice.
    await writeFile(join(company.root, 'receivables', 'again.csv'), OPEN_ITEMS);
    const [second] = await runReconcile({ ...deps, runId: 'run-2' }, [company]);
    expect(second!.receivablesFiles).toEqual([
      expect.objectContaining({ outcome: 'duplicate', movedTo: 'error/again.csv' }),
    ]);
    expect(await readFile(join(company.root, 'error', 'again.csv.errors.txt'), 'utf8')).toContain(
      'byte-for-byte the file "open-items.csv"',
    );
  });

  it('a proposal confirmed by a person stays confirmed the next night, and needs a person again when its facts change', async () => {
    await writeFile(join(company.root, 'receivables', 'open-items.csv'), OPEN_ITEMS);
    await credit([['c-near', 780_050n, '2026-01-09', 'Kunde Vestland AS', 'Faktura 1003']]);
    const [first] = await runReconcile(deps, [company]);
    expect(first!.needsPerson).toBe(true);
    const [proposal] = await store.findings.list({ company: 'acme' });
    expect(proposal).toMatchObject({
      type: 'match_proposed',
      decision: 'open',
      subject: expect.stringContaining('booking '),
    });
    await store.findings.decide('acme', proposal!.id, {
      decision: 'confirmed',
      actor: 'kari',
      origin: 'cli@test',
      reason: 'Kunde Vestland is Kunde Vest after the merger',
    });
    expect(await store.audit.list({ subject: { type: 'finding', id: `acme/${proposal!.id}` } })).toEqual([
      expect.objectContaining({ action: 'finding.confirm', actor: 'kari' }),
    ]);

    clock.set('2026-01-13T09:00:00Z');
    const [next] = await runReconcile({ ...deps, runId: 'run-2' }, [company]);
    expect(next!.needsPerson).toBe(false);
    expect(next!.summary.acknowledged).toBe(1);
    const html = await readFile(join(company.root, next!.html), 'utf8');
    expect(html).toContain('Confirmed: Proposed matches to confirm or reject');

    // The ERP moves the due date of the invoice: the facts the person confirmed changed.
    await writeFile(
      join(company.root, 'receivables', 'open-items-2.csv'),
      OPEN_ITEMS.replace('7800.50,NOK,,2026-01-09', '7800.50,NOK,,2026-01-16'),
    );
    const [changed] = await runReconcile({ ...deps, runId: 'run-3' }, [company]);
    expect(changed!.needsPerson).toBe(true);
    const [again] = await store.findings.list({ company: 'acme' });
    expect(again).toMatchObject({ id: proposal!.id, decision: 'confirmed' });
    expect(again!.summary).toMatch(/Confirmed by kari on 2026-01-12, but its facts changed since/);
  });

  it('a rejected proposal is not proposed again: the credit stands unmatched', async () => {
    await writeFile(join(company.root, 'receivables', 'open-items.csv'), OPEN_ITEMS);
    await credit([['c-near', 780_050n, '2026-01-09', 'Kunde Vestland AS', 'Faktura 1003']]);
    await runReconcile(deps, [company]);
    const [proposal] = await store.findings.list({ company: 'acme' });
    await store.findings.decide('acme', proposal!.id, {
      decision: 'rejected',
      actor: 'kari',
      origin: 'cli@test',
      reason: 'another company',
    });
    const [next] = await runReconcile({ ...deps, runId: 'run-2' }, [company]);
    const counts = Object.fromEntries(next!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    expect(counts).toEqual({ unmatched_credit: 1 });
  });

  it('closes an invoice the next open-items file no longer lists: a later credit is not matched to it', async () => {
    await writeFile(join(company.root, 'receivables', 'open-items.csv'), OPEN_ITEMS);
    await credit([['c-ref', 1_250_000n, '2026-01-09', 'Someone Paying For Nord', 'KID 1002003018']]);
    const [first] = await runReconcile(deps, [company]);
    expect(first!.summary.byType.find((t) => t.type === 'credit_matched')?.count).toBe(1);

    // Next day the ERP's file no longer lists INV-1001 (paid) nor INV-1002 (withdrawn).
    clock.set(new Date('2026-01-13T09:00:00Z'));
    const lines = OPEN_ITEMS.split('\r\n');
    const next = [lines[0], lines[3], lines[4], ''].join('\r\n');
    await writeFile(join(company.root, 'receivables', 'open-items-2.csv'), next);
    await runReconcile({ ...deps, runId: 'run-2' }, [company]);
    await credit([['c-late', 5_000_000n, '2026-01-14', 'Kunde Sør AS', 'KID 1002003026']]);
    clock.set(new Date('2026-01-14T09:00:00Z'));
    const [second] = await runReconcile({ ...deps, runId: 'run-3' }, [company]);
    const counts = Object.fromEntries(second!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    // The credit that paid INV-1001 before it closed still did; the one after INV-1002 closed matches nothing.
    expect(counts).toEqual({ credit_matched: 1, unmatched_credit: 1 });
    const csv = await readFile(join(company.root, second!.csv), 'utf8');
    expect(csv.split('\r\n').find((l) => l.includes('Kunde Sør AS'))).toMatch(/^unmatched_credit,/);
    const html = await readFile(join(company.root, second!.html), 'utf8');
    expect(html).toContain('Credits were matched to 2 open receivables.');
  });

  it('credits before the window count towards what is still in play; the years of receivables closed before are not replayed', async () => {
    const company2024 = { ...company, reconcile: { ...company.reconcile, since: '2024-01-01' } };
    const file = (sha: string, lines: [string, string, string, string][]) =>
      store.receivables.importFile(
        { company: 'acme', sha256: sha.repeat(64), fileName: `${sha}.csv` },
        lines.map(([invoice, minor, reference, due], i) => ({
          invoice,
          customer: 'Kunde Nord AS',
          amount: { minor: BigInt(minor), currency: 'NOK' },
          ...(reference ? { reference } : {}),
          dueDate: toLocalDate(due),
          line: i + 2,
        })),
      );
    clock.set('2024-03-01T09:00:00Z');
    await file('a', [['INV-OLD', '100000', '', '2024-03-10']]);
    // A year on, the ERP no longer lists INV-OLD: closed on 2025-03-01.
    clock.set('2025-03-01T09:00:00Z');
    await file('b', [
      ['INV-0800', '200000', '', '2025-06-01'],
      ['INV-0900', '300000', '1002003034', '2025-11-01'],
    ]);
    // INV-0800 closes on 2025-12-20, within the window of the run below: it is still in play.
    clock.set('2025-12-20T09:00:00Z');
    await file('c', [['INV-0900', '300000', '1002003034', '2025-11-01']]);
    clock.set('2026-01-12T09:00:00Z');
    await credit([
      // Paid INV-0900 in full in November, before the window: replayed, not reported again.
      ['c-0900', 300_000n, '2025-11-03', 'Kunde Nord AS', 'KID 1002003034'],
      ['c-again', 300_000n, '2026-01-10', 'Kunde Nord AS', 'KID 1002003034'],
    ]);
    const asked: string[] = [];
    const listBooked = store.statements.listBookedOfCompany.bind(store.statements);
    store.statements.listBookedOfCompany = (c, from, to) => {
      asked.push(`${from}..${to}`);
      return listBooked(c, from, to);
    };
    const [result] = await runReconcile(deps, [company2024]);
    const counts = Object.fromEntries(result!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    // The credit in the window pays an invoice the replayed one already paid.
    expect(counts).toEqual({ credit_over: 1 });
    // The replay reaches back to INV-0800's due date less the due-date window (30 days), brought
    // in by its closing inside the window; not to INV-OLD's of 2024, closed before it.
    expect(asked).toEqual(['2025-05-02..2025-12-08', '2025-12-09..2026-01-15']);
  });

  it('refuses a file with bad lines as a whole, with the line, the column and what to do', async () => {
    await writeFile(
      join(company.root, 'receivables', 'broken.csv'),
      [
        'Invoice,Customer,Amount,Currency,Reference,Due date',
        'INV-1,Kunde Nord AS,12500.00,NOK,1002003019,2026-01-10',
        'INV-2,Kunde Sør AS,-5,NOK,,2026-01-12',
        'INV-3,,10.00,NOK,,12.01.2026',
        'INV-1,Kunde Nord AS,1.00,NOK,,2026-01-10',
        '',
      ].join('\n'),
    );
    const [result] = await runReconcile(deps, [company]);
    expect(result!.receivablesFiles).toEqual([
      expect.objectContaining({
        outcome: 'rejected',
        movedTo: 'error/broken.csv',
        report: 'error/broken.csv.errors.txt',
      }),
    ]);
    const report = await readFile(join(company.root, 'error', 'broken.csv.errors.txt'), 'utf8');
    expect(report.split('\n')).toEqual([
      'broken.csv: not imported; correct these lines and drop the file again.',
      'line 2, column "Reference": the check digits of KID "1002003019" do not hold; correct the reference in the ERP',
      'line 3, column "Amount": the amount -5 is not positive; a receivable is what the customer owes',
      'line 4, column "Customer": the customer\'s name is empty; it is needed to match payments without a reference',
      'line 4, column "Due date": "12.01.2026" is not a date written as YYYY-MM-DD',
      'line 5, column "Invoice": invoice INV-1 is listed twice (also on line 2); list it once',
      '',
    ]);
    expect(await store.receivables.list('acme')).toEqual([]);
  });
});
