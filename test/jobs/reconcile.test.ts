import { readdir, readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReconcile, type ReconcileDeps } from '../../jobs/reconcile/reconcile.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../src/domain/reconcile/index.js';
import { silentLogger } from '../../src/log/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { LocalFileStore } from '../../src/transport/index.js';
import { makeTempDir } from '../support/tmp.js';
import { recordSent } from '../../jobs/submit/index.js';

const ACCOUNT = 'NO9386011117947';

describe('the reconcile job', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let store: Store;
  let clock: ManualClock;
  let company: CompanyConfig;
  let deps: ReconcileDeps;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    clock = new ManualClock('2026-01-05T09:00:00Z');
    db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    await db.migrate();
    store = createStore(db, clock);
    company = configSchema.parse({
      companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root: join(dir, 'acme') }],
    }).companies[0]!;
    await mkdir(company.root); // settle never creates a company root (issue #50)
    deps = {
      store,
      clock,
      logger: silentLogger(),
      timeZone: 'Europe/Oslo',
      runId: 'run-1',
      config: DEFAULT_RECONCILE_CONFIG,
      lookBackDays: 31,
      fileStore: () => Promise.resolve(new LocalFileStore(company.root)),
    };
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  /** Three payments sent on 2026-01-07 through the real repositories, as pickup and submit store them. */
  async function sendThree(): Promise<string[]> {
    const payment = (n: number, minor: bigint) => ({
      debtorIban: ACCOUNT,
      debtorName: 'ACME AS',
      requestedExecutionDate: toLocalDate('2026-01-07'),
      endToEndId: `E${n}`,
      amount: { minor, currency: 'NOK' },
      creditorIban: 'NO0612000000009',
      creditorName: `Creditor ${n}`,
      lineNumber: n,
    });
    const file = await store.files.recordAcceptedFile(
      {
        company: 'acme',
        fileName: 'pay.csv',
        sha256: 'a'.repeat(64),
        format: 'csv:generic',
        sizeBytes: 10,
        receivedAt: clock.now(),
      },
      [payment(1, 10000n), payment(2, 25000n), payment(3, 5000n)],
    );
    const lines = await store.payments.listByFile(file.id);
    const [bulk] = await store.bulks.createBulks(file.id, [
      {
        position: 0,
        debtorIban: ACCOUNT,
        executionDate: toLocalDate('2026-01-07'),
        batchBooking: false,
        paymentIds: lines.map((l) => l.id),
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await recordSent(store, bulk!.id, { bankPaymentId: 'bank-p1', cause: 'test', bankStatus: 'RCVD' });
    return lines.map((l) => l.id);
  }

  it('matches booked debits by end-to-end id, reports what is missing or unexpected, and writes CSV and HTML', async () => {
    const [p1, p2] = await sendThree();
    await store.payments.applyBankStatus([p1!], { status: 'ACSC', cause: 'test', source: 'poll' });
    await store.payments.applyBankStatus([p2!], { status: 'ACSC', cause: 'test', source: 'poll' });
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: ACCOUNT, currency: 'NOK' });
    await store.statements.upsertTransactions('acc-1', [
      {
        bankTransactionId: 't1',
        status: 'booked',
        amount: { minor: -10000n, currency: 'NOK' },
        bookingDate: toLocalDate('2026-01-07'),
        endToEndId: 'E1',
      },
      {
        bankTransactionId: 't2',
        status: 'booked',
        amount: { minor: -25000n, currency: 'NOK' },
        bookingDate: toLocalDate('2026-01-07'),
        endToEndId: 'E2',
      },
      {
        bankTransactionId: 't3',
        status: 'booked',
        amount: { minor: -777n, currency: 'NOK' },
        bookingDate: toLocalDate('2026-01-08'),
        counterpartyName: 'Bank fee',
      },
    ]);
    clock.set('2026-01-14T09:00:00Z'); // E3 is now more than 2 business days late
    const [result] = await runReconcile(deps, [company]);
    const counts = Object.fromEntries(result!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    expect(counts).toEqual({ not_booked: 1, unexpected_debit: 1, matched: 2 });
    expect(result!.needsPerson).toBe(true);
    const files = await readdir(join(company.root, 'reports'));
    expect(files.sort()).toEqual([result!.csv.slice('reports/'.length), result!.html.slice('reports/'.length)].sort());
    const csv = await readFile(join(company.root, result!.csv), 'utf8');
    expect(csv.split('\n').filter(Boolean)).toHaveLength(1 + 4);
    expect(csv).toContain('E3');
    const html = await readFile(join(company.root, result!.html), 'utf8');
    expect(html).toContain('ACME AS (999999999)');
    expect(html).toContain('Sent but not booked');
    // Both recorded with their content for the console, which links them by id.
    const recorded = await store.reports.list('acme', 'reconciliation');
    expect(recorded.rows.map((r) => r.mediaType).sort()).toEqual(['text/csv', 'text/html']);
    const htmlReport = recorded.rows.find((r) => r.mediaType === 'text/html')!;
    expect(htmlReport.name).toBe(result!.html.slice('reports/'.length));
    expect((await store.reports.find('acme', htmlReport.id))?.content).toBe(html);
  });

  it('needs no person when everything sent was booked', async () => {
    await sendThree();
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: ACCOUNT, currency: 'NOK' });
    await store.statements.upsertTransactions(
      'acc-1',
      [1, 2, 3].map((n) => ({
        bankTransactionId: `t${n}`,
        status: 'booked' as const,
        amount: { minor: -[10000n, 25000n, 5000n][n - 1]!, currency: 'NOK' },
        bookingDate: toLocalDate('2026-01-07'),
        endToEndId: `E${n}`,
      })),
    );
    clock.set('2026-01-08T09:00:00Z');
    const [result] = await runReconcile(deps, [company]);
    expect(result!.needsPerson).toBe(false);
    expect(result!.summary.byType.find((t) => t.type === 'matched')?.count).toBe(3);
  });

  it('reports a consent about to expire, and carries on when the bank cannot list consents', async () => {
    await sendThree();
    const expiring = {
      ...deps,
      consents: () =>
        Promise.resolve([
          { company: 'acme', consentId: 'c-1', bank: 'testbank', validUntil: toLocalDate('2026-01-09') },
        ]),
    };
    const [withConsent] = await runReconcile(expiring, [company]);
    expect(withConsent!.summary.byType.find((t) => t.type === 'consent_expiring')?.count).toBe(1);
    const failing = { ...deps, consents: () => Promise.reject(new Error('bank down')) };
    const [without] = await runReconcile(failing, [company]);
    expect(without!.summary.byType.find((t) => t.type === 'consent_expiring')?.count).toBe(0);
  });

  /** Books debits on the company account: [bank id, amount in minor units (positive = debit), date, end-to-end id?]. */
  async function book(rows: [string, bigint, string, string?][]): Promise<void> {
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: ACCOUNT, currency: 'NOK' });
    await store.statements.upsertTransactions(
      'acc-1',
      rows.map(([id, minor, date, e2e]) => ({
        bankTransactionId: id,
        status: 'booked' as const,
        amount: { minor: -minor, currency: 'NOK' },
        bookingDate: toLocalDate(date),
        counterpartyName: 'Kontorrekvisita AS',
        ...(e2e ? { endToEndId: e2e } : {}),
      })),
    );
  }

  it("reports payments and bookings over the same period when the bank's clock is ahead of settle's", async () => {
    // The bank is two days ahead: it executed and booked settle's payments on 2026-01-07 while
    // settle's own day is still 2026-01-05. The period ends today (settle's day), so neither
    // the payments nor their bookings are in it; the bookings must not turn into debits that
    // "match no payment settle sent".
    const ids = await sendThree();
    for (const id of ids) await store.payments.applyBankStatus([id], { status: 'ACSC', cause: 'test', source: 'poll' });
    await book([
      ['t1', 10000n, '2026-01-07', 'E1'],
      ['t2', 25000n, '2026-01-07', 'E2'],
      ['t3', 5000n, '2026-01-07', 'E3'],
    ]);
    const [result] = await runReconcile(deps, [company]);
    expect(result!.to).toBe('2026-01-05');
    expect(result!.summary.byType.find((t) => t.type === 'unexpected_debit')?.count).toBe(0);
    expect(result!.summary.findings).toBe(0);
    expect(result!.needsPerson).toBe(false);
    const html = await readFile(join(company.root, result!.html), 'utf8');
    expect(html).toContain('Compared 0 payments for execution from 2025-12-05 to 2026-01-05 with 0 bookings dated');

    // Two days on, settle's period reaches the execution day: all three are matched, nothing else.
    clock.set('2026-01-07T09:00:00Z');
    const [later] = await runReconcile(deps, [company]);
    const counts = Object.fromEntries(later!.summary.byType.filter((t) => t.count > 0).map((t) => [t.type, t.count]));
    expect(counts).toEqual({ matched: 3 });
  });

  it('leaves everything before the go-live date out of the report', async () => {
    company = { ...company, reconcile: { ...company.reconcile, since: '2026-01-05' } };
    await book([
      ['old-1', 349900n, '2026-01-02'],
      ['old-2', 99000n, '2026-01-04'],
      ['new-1', 777n, '2026-01-05'],
    ]);
    const [result] = await runReconcile(deps, [company]);
    expect(result!.from).toBe('2026-01-05');
    const csv = await readFile(join(company.root, result!.csv), 'utf8');
    expect(csv).toContain('7.77');
    expect(csv).not.toContain('3499.00');
    expect(csv).not.toContain('990.00');
    expect(result!.summary.byType.find((t) => t.type === 'unexpected_debit')?.count).toBe(1);
    const html = await readFile(join(company.root, result!.html), 'utf8');
    expect(html).toContain('Go-live 2026-01-05: nothing sent or booked before it is reported.');
  });

  it('keeps an acknowledged finding quiet the next night, in its own section, until its facts change', async () => {
    const [, , p3] = await sendThree();
    for (const id of [p3!])
      await store.payments.applyBankStatus([id], { status: 'ACSC', cause: 'test', source: 'poll' });
    await book([
      ['t1', 10000n, '2026-01-07', 'E1'],
      ['t2', 25000n, '2026-01-07', 'E2'],
      ['fee', 777n, '2026-01-08'],
    ]);
    clock.set('2026-01-14T09:00:00Z'); // E3 is now more than 2 business days late
    const [night1] = await runReconcile(deps, [company]);
    expect(night1!.summary.needingPerson).toBe(2);
    const open = await store.findings.list({ company: 'acme' });
    expect(open.map((f) => f.type).sort()).toEqual(['not_booked', 'unexpected_debit']);
    const fee = open.find((f) => f.type === 'unexpected_debit')!;
    const late = open.find((f) => f.type === 'not_booked')!;
    const decide = (id: string, reason: string) =>
      store.findings.decide('acme', id, { decision: 'acknowledged', actor: 'kari', origin: 'cli@test', reason });
    await decide(fee.id, 'monthly account fee, booked by hand');
    await decide(late.id, 'the bank executes it tomorrow (called them)');

    // The next night: the same facts, so neither needs a person; both are listed as acknowledged.
    clock.set('2026-01-15T09:00:00Z');
    const [night2] = await runReconcile({ ...deps, runId: 'run-2' }, [company]);
    expect(night2!.needsPerson).toBe(false);
    expect(night2!.summary.acknowledged).toBe(2);
    expect((await store.findings.list({ company: 'acme' })).map((f) => f.id).sort()).toEqual([fee.id, late.id].sort());
    const html = await readFile(join(company.root, night2!.html), 'utf8');
    expect(html).toContain('<h2 id="acknowledged">Acknowledged (2)</h2>');
    expect(html).toContain('monthly account fee, booked by hand');
    const csv = await readFile(join(company.root, night2!.csv), 'utf8');
    expect(csv).toMatch(new RegExp(`unexpected_debit,warning,no,.*${fee.id},kari,.*monthly account fee`));

    // E3 is booked with another amount: its facts changed, so it needs a person again, with the same id.
    await book([['t3', 4000n, '2026-01-15', 'E3']]);
    clock.set('2026-01-16T09:00:00Z');
    const [night3] = await runReconcile({ ...deps, runId: 'run-3' }, [company]);
    expect(night3!.summary.needingPerson).toBe(1);
    expect(night3!.summary.acknowledged).toBe(1);
    const again = (await store.findings.find(late.id))[0]!;
    expect(again).toMatchObject({ type: 'amount_difference', decision: 'acknowledged' });
    expect(again.factHash).not.toBe(again.decidedHash);
    expect(again.summary).toContain('Acknowledged by kari on 2026-01-14, but its facts changed since');
  });

  it('writes a report whose totals add up with the CSV, with balances per account, ages, status words and whole IBANs', async () => {
    const [p1, p2, p3] = await sendThree();
    for (const id of [p1!, p2!, p3!])
      await store.payments.applyBankStatus([id], { status: 'ACSC', cause: 'test', source: 'poll' });
    await book([
      ['t1', 10000n, '2026-01-07', 'E1'],
      ['t2', 25100n, '2026-01-07', 'E2'],
      ['fee', 777n, '2026-01-08'],
    ]);
    clock.set('2026-01-14T09:00:00Z');
    const [result] = await runReconcile(deps, [company]);
    const html = await readFile(join(company.root, result!.html), 'utf8');
    const csv = await readFile(join(company.root, result!.csv), 'utf8');

    // Every type's total in the HTML summary is the sum of its rows' amounts in the CSV.
    const header = csv.split('\r\n')[0]!.split(',');
    const [typeAt, amountAt] = [header.indexOf('finding_type'), header.indexOf('amount')];
    const csvTotals = new Map<string, number>();
    for (const line of csv.split('\r\n').slice(1).filter(Boolean)) {
      const cells = line.split(',');
      csvTotals.set(cells[typeAt]!, (csvTotals.get(cells[typeAt]!) ?? 0) + Math.round(Number(cells[amountAt]) * 100));
    }
    expect(csvTotals.size).toBeGreaterThan(1);
    for (const entry of result!.summary.byType.filter((t) => t.count > 0)) {
      const row = html.match(new RegExp(`<a href="#${entry.type}">[^<]*</a>.*?<td class="num">([^<]*) NOK</td></tr>`));
      expect(Math.round(Number(row![1]) * 100), entry.type).toBe(csvTotals.get(entry.type));
    }

    // Balances: settle sent 400.00 for execution in the period; 358.77 was booked out.
    expect(html).toMatch(
      /<th scope="row"><span class="iban">NO93\u00a08601\u00a01117\u00a0947<\/span><\/th><td>NOK<\/td><td class="num">—<\/td><td class="num">400.00<\/td><td class="num">358.77<\/td><td class="num">0.00<\/td>/,
    );
    // E3 is open 5 business days after its execution date (2026-01-07 → 2026-01-14).
    expect(html).toMatch(/<th scope="row">3–5<\/th><td class="num">1<\/td><td class="num">50.00 NOK<\/td>/);
    // A status code in the words the console gives a payment's state (one table for both).
    expect(html).toContain('Paid from the debtor account (ACSC)');
    expect(html).toContain('<span class="iban">NO06\u00a01200\u00a00000\u00a0009</span>');
    expect(html).toContain('Generated 2026-01-14 10:00 GMT+1');
  });
});
