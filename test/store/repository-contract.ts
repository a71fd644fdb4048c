// The repository contract: every database settle supports must pass this same suite
// (SQLite in sqlite.test.ts, MariaDB in mariadb.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import {
  createStore,
  MIGRATIONS,
  MIGRATIONS_TABLE,
  openDatabase,
  type Database,
  type MigrateResult,
  type Store,
} from '../../src/store/index.js';
import { approvalAndReportingCases } from './contract-approval-reporting.js';
import { bankAccountCases } from './contract-bank-accounts.js';
import { bureauCases } from './contract-bureau.js';
import { claimCases } from './contract-claims.js';
import { consentCases } from './contract-consents.js';
import { decisionCases } from './contract-decisions.js';
import { fileRedropCases } from './contract-file-redrops.js';
import { heldCases } from './contract-held.js';
import { statementCases } from './contract-statements.js';
import { exportFloorCases } from './contract-export-floors.js';
import { shortIdentifierCases } from './contract-short-identifiers.js';
import { outboxCases } from './contract-outbox.js';
import { receivableCases } from './contract-receivables.js';
import { retentionCases } from './contract-retention.js';
import { payment, paymentFile, rejectsWithCode } from './fixtures.js';
import { stateCountDrift } from '../support/state-counts.js';
import type { Row } from '../../src/store/rows.js';
import { recordSent } from '../../jobs/submit/index.js';

export interface TestDatabase {
  url: string;
  dataDir?: string;
  cleanup(): Promise<void>;
}

const MAX_I64 = 9_223_372_036_854_775_807n;
const BEYOND_DOUBLE = 2n ** 53n + 1n;

export function repositoryContract(name: string, makeDatabase: () => Promise<TestDatabase>): void {
  describe(`repositories on ${name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let store: Store;
    let firstMigration: MigrateResult;
    const clock = new ManualClock('2026-01-05T08:00:00Z');

    beforeAll(async () => {
      target = await makeDatabase();
      db = await openDatabase({ url: target.url, ...(target.dataDir ? { dataDir: target.dataDir } : {}) });
      store = createStore(db, clock);
      firstMigration = await db.migrate();
    });

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('applies the migrations once and a second migrate applies nothing', async () => {
      expect(firstMigration.applied).toEqual(MIGRATIONS.map((m) => m.name));
      expect(firstMigration.alreadyApplied).toEqual([]);
      const second = await db.migrate();
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toEqual(MIGRATIONS.map((m) => m.name));
      expect(await db.migrationStatus()).toEqual({ applied: MIGRATIONS.map((m) => m.name), pending: [], unknown: [] });
    });

    it('lets two instances migrate a fresh database at the same moment', async () => {
      const fresh = await makeDatabase();
      const opts = { url: fresh.url, ...(fresh.dataDir ? { dataDir: fresh.dataDir } : {}) };
      const [a, b] = [await openDatabase(opts), await openDatabase(opts)];
      try {
        const results = await Promise.all([a.migrate(), b.migrate()]);
        expect(results.flatMap((r) => r.applied).sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
        expect((await a.migrationStatus()).pending).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        await fresh.cleanup();
      }
    });

    it('refuses to migrate a database that has a migration this build does not know', async () => {
      const other = await openDatabase({ url: target.url, ...(target.dataDir ? { dataDir: target.dataDir } : {}) });
      try {
        await other
          .knex(MIGRATIONS_TABLE)
          .insert({ name: '9999_from_the_future', batch: 99, migration_time: new Date() });
        await rejectsWithCode(other.migrate(), 'ERR_DB_MIGRATION_UNKNOWN');
        expect((await other.migrationStatus()).unknown).toEqual(['9999_from_the_future']);
      } finally {
        await other.knex(MIGRATIONS_TABLE).where({ name: '9999_from_the_future' }).delete();
        await other.close();
      }
      expect((await db.migrate()).applied).toEqual([]);
    });

    it('keeps one last success per job and company, replaced by the next', async () => {
      await store.jobSuccesses.record('nightly', 'acme', 'run-1');
      await store.jobSuccesses.record('export', 'acme', 'run-1');
      clock.advance(60_000);
      await store.jobSuccesses.record('nightly', 'acme', 'run-2');
      expect(await store.jobSuccesses.list()).toEqual([
        { job: 'export', company: 'acme', succeededAt: new Date('2026-01-05T08:00:00Z'), runId: 'run-1' },
        { job: 'nightly', company: 'acme', succeededAt: new Date('2026-01-05T08:01:00Z'), runId: 'run-2' },
      ]);
      // Several in one write (a chain's steps and accounts); a job and company named twice is one row.
      clock.advance(60_000);
      const at = new Date('2026-01-05T08:02:00Z');
      await store.jobSuccesses.recordAll(
        [
          { job: 'fetch', company: 'acme' },
          { job: 'fetch', company: 'acme' },
          { job: 'nightly', company: 'acme' },
        ],
        'run-3',
      );
      expect(await store.jobSuccesses.list()).toEqual([
        { job: 'export', company: 'acme', succeededAt: new Date('2026-01-05T08:00:00Z'), runId: 'run-1' },
        { job: 'fetch', company: 'acme', succeededAt: at, runId: 'run-3' },
        { job: 'nightly', company: 'acme', succeededAt: at, runId: 'run-3' },
      ]);
    });

    it('stores amounts beyond 2^53 and up to 2^63-1 exactly', async () => {
      const stored = await store.files.recordAcceptedFile(paymentFile('big-amounts'), [
        payment(1, { endToEndId: 'BIG-1', amount: { minor: MAX_I64, currency: 'NOK' } }),
        payment(2, { endToEndId: 'BIG-2', amount: { minor: BEYOND_DOUBLE, currency: 'EUR' } }),
      ]);
      const lines = await store.payments.listByFile(stored.id);
      expect(lines.map((l) => l.amount)).toEqual([
        { minor: MAX_I64, currency: 'NOK' },
        { minor: BEYOND_DOUBLE, currency: 'EUR' },
      ]);
      expect((await store.files.getFile(stored.id))?.totals).toEqual({
        NOK: MAX_I64.toString(),
        EUR: BEYOND_DOUBLE.toString(),
      });

      await store.statements.upsertAccount({ id: 'acct-big', company: 'acme', currency: 'NOK' });
      await store.statements.upsertTransactions('acct-big', [
        {
          bankTransactionId: 'tx-neg',
          status: 'booked',
          bookingDate: '2026-01-05' as never,
          amount: { minor: -(BEYOND_DOUBLE + 2n), currency: 'NOK' },
        },
      ]);
      const [tx] = await store.statements.listTransactions('acct-big');
      expect(tx?.amount.minor).toBe(-(BEYOND_DOUBLE + 2n));
      await store.statements.upsertBalances('acct-big', [
        { type: 'closingBooked', referenceDate: '2026-01-05' as never, amount: { minor: -MAX_I64, currency: 'NOK' } },
      ]);
      expect(await store.statements.getBalance('acct-big', 'closingBooked', '2026-01-05' as never)).toEqual({
        minor: -MAX_I64,
        currency: 'NOK',
      });
    });

    it('records an accepted file with its payments and finds it by SHA-256', async () => {
      const file = paymentFile('ledger-1');
      const stored = await store.files.recordAcceptedFile(file, [
        payment(1, { endToEndId: 'L1-1' }),
        payment(2, { endToEndId: 'L1-2', creditorBic: 'DNBANOKK', batchBooking: false }),
      ]);
      const found = await store.files.findFileBySha256('acme', file.sha256);
      expect(found).toMatchObject({
        id: stored.id,
        state: 'accepted',
        acceptedCount: 2,
        fileName: 'ledger-1.csv',
        receivedAt: file.receivedAt,
      });
      const lines = await store.payments.listByFile(stored.id);
      expect(lines.map((l) => [l.lineNumber, l.endToEndId, l.state])).toEqual([
        [1, 'L1-1', 'accepted'],
        [2, 'L1-2', 'accepted'],
      ]);
      expect(lines[1]).toMatchObject({
        creditorBic: 'DNBANOKK',
        batchBooking: false,
        requestedExecutionDate: '2026-01-06',
      });
      expect(await store.files.findFileBySha256('other-company', file.sha256)).toBeUndefined();
    });

    it('refuses the same file twice for a company and stores nothing the second time', async () => {
      const file = paymentFile('ledger-dup');
      const first = await store.files.recordAcceptedFile(file, [payment(1, { endToEndId: 'DUP-1' })]);
      await rejectsWithCode(
        store.files.recordAcceptedFile({ ...file, fileName: 'renamed.csv' }, [payment(1, { endToEndId: 'DUP-other' })]),
        'ERR_DB_FILE_DUPLICATE',
      );
      expect(await store.files.isEndToEndIdKnown('acme', ['DUP-other'])).toBe(false);
      expect((await store.files.findFileBySha256('acme', file.sha256))?.id).toBe(first.id);
      // The same bytes from another company are a different file.
      await store.files.recordAcceptedFile({ ...file, company: 'globex' }, [payment(1, { endToEndId: 'DUP-1' })]);
    });

    it('refuses an end-to-end id the company already used, atomically', async () => {
      await store.files.recordAcceptedFile(paymentFile('e2e-a'), [
        payment(1, { endToEndId: 'E2E-TAKEN' }),
        payment(2, { endToEndId: 'e2e-taken' }),
      ]);
      expect([...(await store.files.knownEndToEndIds('acme', ['E2E-TAKEN', 'E2E-FREE', 'e2e-taken']))].sort()).toEqual([
        'E2E-TAKEN',
        'e2e-taken',
      ]);
      const second = paymentFile('e2e-b');
      await rejectsWithCode(
        store.files.recordAcceptedFile(second, [
          payment(1, { endToEndId: 'E2E-NEW' }),
          payment(2, { endToEndId: 'E2E-TAKEN' }),
        ]),
        'ERR_DB_END_TO_END_ID_TAKEN',
      );
      expect(await store.files.findFileBySha256('acme', second.sha256)).toBeUndefined();
      expect(await store.files.isEndToEndIdKnown('acme', ['E2E-NEW'])).toBe(false);
    });

    it('records a rejected file so that a re-drop is recognised', async () => {
      const file = paymentFile('rejected-1');
      await store.files.recordRejectedFile(file, '3 errors: ERR_CSV_AMOUNT at row 2, …', {
        lineCount: 5,
        rejectedCount: 3,
      });
      expect(await store.files.findFileBySha256('acme', file.sha256)).toMatchObject({
        state: 'rejected',
        rejectedCount: 3,
        errorSummary: '3 errors: ERR_CSV_AMOUNT at row 2, …',
      });
    });

    it('refuses an illegal file transition and records every legal one', async () => {
      const stored = await store.files.recordAcceptedFile(paymentFile('states-1'), [
        payment(1, { endToEndId: 'ST-1' }),
      ]);
      await rejectsWithCode(
        store.files.setFileState(stored.id, 'received', 'test', 'submit'),
        'ERR_STATE_TRANSITION_ILLEGAL',
      );
      await store.files.setFileState(stored.id, 'submitted', 'all bulks sent', 'submit');
      await rejectsWithCode(
        store.files.setFileState(stored.id, 'accepted', 'test', 'submit'),
        'ERR_STATE_TRANSITION_ILLEGAL',
      );
      expect((await store.files.getFile(stored.id))?.state).toBe('submitted');
      const log = await store.transitions('payment_file', stored.id);
      expect(log.map((t) => [t.from, t.to, t.cause])).toEqual([
        [undefined, 'accepted', 'pickup states-1.csv'],
        ['accepted', 'submitted', 'all bulks sent'],
      ]);
    });

    outboxCases(() => ({ store, clock }));
    heldCases(() => ({ store, clock }));
    fileRedropCases(() => ({ store, clock }));
    statementCases(() => ({ store, clock }));
    exportFloorCases(() => ({ store, clock }));
    shortIdentifierCases(() => ({ store, clock }));
    retentionCases(() => ({ store, clock, db }));
    claimCases(() => ({ store, clock, target }));

    it('moves a bulk of 1,000 lines in one UPDATE and one batch INSERT of transition rows', async () => {
      const stored = await store.files.recordAcceptedFile(
        paymentFile('set-based-1'),
        Array.from({ length: 1000 }, (_, i) => payment(i + 1, { endToEndId: `SB-${i}` })),
      );
      const ids = (await store.payments.listByFile(stored.id)).map((p) => p.id);
      const statements: string[] = [];
      const record = (q: { sql: string }) => void statements.push(q.sql.toLowerCase().replace(/[`"]/g, ''));
      db.knex.on('query', record);
      try {
        const [bulk] = await store.bulks.createBulks(stored.id, [
          {
            position: 0,
            debtorIban: 'NO9386011117947',
            executionDate: '2026-01-06' as never,
            batchBooking: true,
            paymentIds: ids,
          },
        ]);
        const lineWrites = () => ({
          updates: statements.filter((q) => q.startsWith('update payments')).length,
          // the bulk's own transition row and its lines' are two INSERTs at most
          inserts: statements.filter((q) => q.startsWith('insert into transitions')).length,
        });
        // Planning: the lines join the bulk in the UPDATE that queues them (bulk_id and state in
        // one write), and one transition row stands for the bulk's lines beside the bulk's own.
        expect(lineWrites()).toEqual({ updates: 1, inserts: 2 });
        const joining = statements.filter((q) => q.startsWith('update payments'));
        expect(joining[0]).toMatch(/^update payments set .*bulk_id = \?.* where id in/);
        expect(joining[0]).toMatch(/state = \?/);
        await store.bulks.markSending(bulk!.id);
        statements.length = 0;
        await recordSent(store, bulk!.id, { bankPaymentId: 'PAY-SB' });
        expect(lineWrites()).toEqual({ updates: 1, inserts: 2 });
        statements.length = 0;
        const moved = await store.payments.applyBankStatus(ids, { status: 'ACSC', cause: 'poll ACSC', source: 'poll' });
        expect(moved.moved).toBe(1000);
        expect(lineWrites()).toEqual({ updates: 1, inserts: 1 });
        // The same status again is a duplicate for every line: nothing is written.
        statements.length = 0;
        expect(
          await store.payments.applyBankStatus(ids, { status: 'ACSC', cause: 'poll ACSC', source: 'poll' }),
        ).toMatchObject({
          moved: 0,
          duplicate: 1000,
        });
        expect(lineWrites()).toEqual({ updates: 0, inserts: 0 });
      } finally {
        db.knex.removeListener('query', record);
      }
      const log = await store.transitions('payment', ids[999]!);
      expect(log.map((t) => [t.from, t.to, t.source])).toEqual([
        ['accepted', 'queued', 'submit'],
        ['queued', 'sent', 'submit'],
        ['sent', 'ACSC', 'poll'],
      ]);
      expect((await store.payments.listByFile(stored.id)).every((p) => p.state === 'ACSC')).toBe(true);
      // What closing a bulk and comparing a status report read: a count and a narrow read.
      const bulkId = (await store.payments.listByFile(stored.id))[0]!.bulkId!;
      expect(await store.payments.bulkAllIn(bulkId, ['ACSC', 'RJCT'])).toBe(true);
      expect(await store.payments.bulkAllIn(bulkId, ['RJCT'])).toBe(false);
      const lines = await store.payments.statusOfBulkPayments(bulkId);
      expect(lines).toHaveLength(1000);
      expect(lines.find((l) => l.id === ids[999])).toEqual({
        id: ids[999],
        endToEndId: 'SB-999',
        state: 'ACSC',
        tppMessages: [],
      });
    });

    it("moves a bulk's lines by naming the bulk, with one transition row for them all; lines already further along stay and are written by id", async () => {
      const stored = await store.files.recordAcceptedFile(
        paymentFile('by-bulk-1'),
        Array.from({ length: 10 }, (_, i) => payment(i + 1, { endToEndId: `BB-${i}` })),
      );
      const ids = (await store.payments.listByFile(stored.id)).map((p) => p.id);
      const [bulk] = await store.bulks.createBulks(stored.id, [
        {
          position: 0,
          debtorIban: 'NO9386011117947',
          executionDate: '2026-01-06' as never,
          batchBooking: true,
          paymentIds: ids,
        },
      ]);
      await store.bulks.markSending(bulk!.id);
      const writes: { sql: string; bindings: number }[] = [];
      const record = (q: { sql: string; bindings?: unknown[] }) =>
        void writes.push({ sql: q.sql.toLowerCase().replace(/[`"]/g, ''), bindings: q.bindings?.length ?? 0 });
      const lineWrites = () =>
        writes.filter(
          (w) => w.sql.startsWith('update payments') || /^insert into transitions .* from payments /.test(w.sql),
        );
      db.knex.on('query', record);
      try {
        // Every line moves from one state: one UPDATE names the bulk, whatever its size, and one
        // transition row stands for all of the bulk's lines.
        await recordSent(store, bulk!.id, { bankPaymentId: 'PAY-BB' });
        expect(lineWrites()).toHaveLength(1);
        for (const w of lineWrites()) {
          expect(w.sql).toContain('where bulk_id = ?');
          expect(w.sql).not.toContain(' in (');
          expect(w.bindings).toBeLessThan(10);
        }
        const bulkLinesRows = writes.filter(
          (w) => w.sql.startsWith('insert into transitions') && !w.sql.includes(' from '),
        );
        // One row with its eight columns (entity, id, from, to, cause and its recorded text, source, at).
        expect(bulkLinesRows.map((w) => w.bindings)).toEqual([8]);
        // One line is ahead (ACSC); a bulk-wide ACSP leaves it and moves the other nine, by id.
        await store.payments.applyBankStatus([ids[0]!], { status: 'ACSC', cause: 'event ACSC', source: 'event' });
        writes.length = 0;
        const r = await store.payments.applyBankStatus(
          { bulkId: bulk!.id },
          { status: 'ACSP', cause: 'poll ACSP', source: 'poll' },
        );
        expect(r.moved).toBe(9);
        expect(r.stale).toBe(1);
        expect(lineWrites()).toHaveLength(2);
        for (const w of lineWrites()) expect(w.sql).toContain('id in (');
      } finally {
        db.knex.removeListener('query', record);
      }
      const states = new Map((await store.payments.listByFile(stored.id)).map((p) => [p.id, p.state]));
      expect(states.get(ids[0]!)).toBe('ACSC');
      expect(ids.slice(1).every((id) => states.get(id) === 'ACSP')).toBe(true);
      expect((await store.transitions('payment', ids[0]!)).map((t) => t.to)).toEqual(['queued', 'sent', 'ACSC']);
      expect((await store.transitions('payment', ids[9]!)).map((t) => [t.from, t.to, t.source])).toEqual([
        ['accepted', 'queued', 'submit'],
        ['queued', 'sent', 'submit'],
        ['sent', 'ACSP', 'poll'],
      ]);
    });

    it('never gives the same row to two concurrent claimers', async () => {
      const count = 40;
      const stored = await store.files.recordAcceptedFile(
        paymentFile('claims-1'),
        Array.from({ length: count }, (_, i) => payment(i + 1, { endToEndId: `CL-${i}` })),
      );
      const lines = await store.payments.listByFile(stored.id);
      const plans = lines.map((l, i) => ({
        position: i,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: [l.id],
      }));
      const bulkIds = new Set((await store.bulks.createBulks(stored.id, plans)).map((b) => b.id));
      // A second handle: its own connection pool, as a second settle instance would have.
      const otherDb = await openDatabase({ url: target.url, ...(target.dataDir ? { dataDir: target.dataDir } : {}) });
      const other = createStore(otherDb, clock);
      try {
        const worker = async (s: Store, holder: string) => {
          const got: string[] = [];
          for (;;) {
            const rows = await s.claim('bulks', {
              where: { state: 'pending', file_id: stored.id },
              limit: 3,
              holder,
              leaseMs: 60_000,
            });
            if (rows.length === 0) return got;
            for (const r of rows) expect(r.lease_holder).toBe(holder);
            got.push(...rows.map((r) => String(r.id)));
          }
        };
        const results = await Promise.all([
          worker(store, 'a-1'),
          worker(other, 'b-1'),
          worker(store, 'a-2'),
          worker(other, 'b-2'),
        ]);
        const all = results.flat();
        expect(new Set(all).size).toBe(all.length);
        expect(new Set(all)).toEqual(bulkIds);
      } finally {
        await otherDb.close();
      }
    });

    it('lets an expired claim be taken again, and only by one holder', async () => {
      const stored = await store.files.recordAcceptedFile(paymentFile('claims-2'), [
        payment(1, { endToEndId: 'CE-1' }),
      ]);
      const [line] = await store.payments.listByFile(stored.id);
      await store.bulks.createBulks(stored.id, [
        {
          position: 0,
          debtorIban: 'NO9386011117947',
          executionDate: '2026-01-06' as never,
          batchBooking: true,
          paymentIds: [line!.id],
        },
      ]);
      const where = { file_id: stored.id };
      const first = await store.claim('bulks', { where, limit: 10, holder: 'crashed', leaseMs: 30_000 });
      expect(first).toHaveLength(1);
      expect(await store.claim('bulks', { where, limit: 10, holder: 'other', leaseMs: 30_000 })).toEqual([]);
      clock.advance(30_001);
      expect(await store.renewClaim('bulks', [String(first[0]!.id)], 'crashed', 30_000)).toBe(1); // not yet taken: renew still works
      clock.advance(30_001);
      const taken = await store.claim('bulks', { where, limit: 10, holder: 'other', leaseMs: 30_000 });
      expect(taken.map((r) => r.id)).toEqual(first.map((r) => r.id));
      expect(await store.renewClaim('bulks', [String(first[0]!.id)], 'crashed', 30_000)).toBe(0);
      expect(await store.releaseClaim('bulks', [String(first[0]!.id)], 'other')).toBe(1);
      expect(await store.claim('bulks', { where, limit: 10, holder: 'third', leaseMs: 30_000 })).toHaveLength(1);
    });

    // Units of work try the INSERT first (their rows are deleted on release), other leases the UPDATE.
    it.each([{ usuallyFree: false }, { usuallyFree: true }])(
      'hands a named lease to one holder at a time and lets another take it over after expiry (%o)',
      async (how) => {
        const name = `nightly-${String(how.usuallyFree)}`;
        const a = await store.leases.acquire(name, 'host-a', 60_000, how);
        expect(a?.holder).toBe('host-a');
        expect(await store.leases.acquire(name, 'host-b', 60_000, how)).toBeUndefined();
        expect(await store.leases.acquire(name, 'host-a', 60_000, how)).toBeDefined(); // re-entrant for its holder
        expect(await store.leases.renew(name, 'host-a', 60_000)).toBe(true);
        clock.advance(60_001); // host-a crashed and stopped renewing
        expect(await store.leases.current(name)).toBeUndefined();
        expect((await store.leases.acquire(name, 'host-b', 60_000, how))?.holder).toBe('host-b');
        expect(await store.leases.renew(name, 'host-a', 60_000)).toBe(false);
        expect(await store.leases.release(name, 'host-a')).toBe(false);
        expect((await store.leases.current(name))?.holder).toBe('host-b');
        expect(await store.leases.release(name, 'host-b')).toBe(true);
        expect((await store.leases.acquire(name, 'host-a', 60_000, how))?.holder).toBe('host-a');
      },
    );

    it('lets one of several racing claimers of a free unit take it', async () => {
      const taken = await Promise.all(
        ['a', 'b', 'c', 'd'].map((holder) => store.leases.acquire('unit:race', holder, 60_000, { usuallyFree: true })),
      );
      expect(taken.filter((t) => t !== undefined)).toHaveLength(1);
    });

    it('records a finish mark, replaced by the next finisher', async () => {
      const since = new Date(Date.now() - 1_000);
      await store.leases.recordDone('unit:nightly:acme', 'host-a');
      expect((await store.leases.doneSince('unit:nightly:acme', since))?.holder).toBe('host-a');
      await store.leases.recordDone('unit:nightly:acme', 'host-b');
      expect((await store.leases.doneSince('unit:nightly:acme', since))?.holder).toBe('host-b');
      expect(await store.leases.doneSince('unit:nightly:acme', new Date(Date.now() + 60_000))).toBeUndefined();
    });

    it('runs a job under a lease, refuses a second runner meanwhile, and releases it afterwards', async () => {
      let inner: unknown;
      const outer = await store.leases.runWithLease('fetch:acct-1', 'host-a', 90, async (lost) => {
        inner = await store.leases.runWithLease('fetch:acct-1', 'host-b', 90, () => Promise.resolve('second'));
        const before = (await db.knex('leases').where({ name: 'fetch:acct-1' }).first()).expires_at;
        clock.advance(60);
        let after = before;
        // Renewals run every ttl/3 of real time; wait (boundedly) for one to land.
        for (let i = 0; i < 100 && after === before; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          after = (await db.knex('leases').where({ name: 'fetch:acct-1' }).first()).expires_at;
        }
        expect(after > before).toBe(true);
        expect(lost.aborted).toBe(false);
        return 'done';
      });
      expect(outer).toEqual({ ran: true, result: 'done' });
      expect(inner).toEqual({ ran: false, claimedBy: 'host-a' });
      expect(await store.leases.current('fetch:acct-1')).toBeUndefined();
    });

    it('purges only leases that expired longer ago than the grace period', async () => {
      await store.leases.acquire('poll:old', 'status', 1_000);
      await store.leases.acquire('poll:live', 'status', 10 * 86_400_000);
      clock.advance(2 * 86_400_000);
      await store.leases.acquire('poll:recent', 'status', 1_000);
      clock.advance(2_000);
      const count = async (): Promise<number> => Number((await db.knex('leases').count({ n: '*' }))[0]?.n);
      const before = await count();
      // Earlier tests' leases expired long ago too: the count removed is whatever the table lost.
      expect(await store.leases.purgeExpired(86_400_000)).toBe(before - (await count()));
      const names = (
        await db.knex('leases').select('name').whereIn('name', ['poll:old', 'poll:live', 'poll:recent']).orderBy('name')
      ).map((r: { name: string }) => r.name);
      expect(names).toEqual(['poll:live', 'poll:recent']);
    });

    it('lets exactly one of two racing creators take a new lease', async () => {
      const otherDb = await openDatabase({ url: target.url, ...(target.dataDir ? { dataDir: target.dataDir } : {}) });
      try {
        const other = createStore(otherDb, clock);
        const results = await Promise.all([
          store.leases.acquire('race', 'x', 10_000),
          other.leases.acquire('race', 'y', 10_000),
        ]);
        expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      } finally {
        await otherDb.close();
      }
    });

    it('upserts transactions idempotently, books pending ones and never un-books', async () => {
      await store.statements.upsertAccount({ id: 'acct-1', company: 'acme', iban: 'NO9386011117947', currency: 'NOK' });
      await store.statements.upsertAccount({
        id: 'acct-1',
        company: 'acme',
        iban: 'NO9386011117947',
        currency: 'NOK',
        name: 'Operating',
      });
      const pending = {
        bankTransactionId: 't1',
        status: 'pending' as const,
        amount: { minor: -5000n, currency: 'NOK' },
        endToEndId: 'OB-1',
        raw: { a: 1 },
      };
      const booked = {
        bankTransactionId: 't2',
        status: 'booked' as const,
        bookingDate: '2026-01-05' as never,
        amount: { minor: 700n, currency: 'NOK' },
        creditorReference: { reference: 'RF18539007547034', type: 'RF' },
      };
      expect(await store.statements.upsertTransactions('acct-1', [pending, booked])).toEqual({
        inserted: 2,
        updated: 0,
        unchanged: 0,
      });
      expect(await store.statements.upsertTransactions('acct-1', [pending, booked])).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: 2,
      });
      const nowBooked = { ...pending, status: 'booked' as const, bookingDate: '2026-01-06' as never };
      expect(await store.statements.upsertTransactions('acct-1', [nowBooked])).toEqual({
        inserted: 0,
        updated: 1,
        unchanged: 0,
      });
      expect(await store.statements.upsertTransactions('acct-1', [pending])).toEqual({
        inserted: 0,
        updated: 0,
        unchanged: 1,
      });
      const rows = await store.statements.listTransactions('acct-1');
      expect(rows.map((r) => [r.bankTransactionId, r.status, r.bookingDate])).toEqual([
        ['t2', 'booked', '2026-01-05'],
        ['t1', 'booked', '2026-01-06'],
      ]);
      expect(rows[1]).toMatchObject({ endToEndId: 'OB-1', raw: { a: 1 } });
      expect(rows[0]!.creditorReference).toEqual({ reference: 'RF18539007547034', type: 'RF' });
      expect(rows[1]!.creditorReference).toBeUndefined();
      // A reference the bank adds later is a change of the stored transaction.
      expect(
        await store.statements.upsertTransactions('acct-1', [
          { ...booked, creditorReference: { reference: '10010000015', type: 'KID' } },
        ]),
      ).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect((await store.statements.findByEndToEndId('OB-1')).map((t) => t.bankTransactionId)).toEqual(['t1']);
    });

    it('deduplicates webhook events and alerts', async () => {
      expect(
        await store.dedupe.recordWebhookEvent({ id: 'evt-1', type: 'banking.payment.status', payload: { x: 1 } }),
      ).toBe(true);
      // Recorded but not processed (a crash mid-way): a redelivery is processed again.
      expect(await store.dedupe.recordWebhookEvent({ id: 'evt-1', type: 'banking.payment.status' })).toBe(true);
      await store.dedupe.markWebhookProcessed('evt-1');
      expect(await store.dedupe.recordWebhookEvent({ id: 'evt-1', type: 'banking.payment.status' })).toBe(false);
      expect(await store.dedupe.recordAlertSent('gap:acct-1:2026-01-05', 'mail')).toBe(true);
      expect(await store.dedupe.recordAlertSent('gap:acct-1:2026-01-05', 'mail')).toBe(false);
    });

    it('records job runs with their outcome and summary', async () => {
      const run = await store.jobRuns.start('pickup', 'run-1', 'host-a');
      clock.advance(5000);
      await store.jobRuns.finish(run.id, 'findings', { files: 2, total: 2n ** 60n });
      expect(await store.jobRuns.get(run.id)).toMatchObject({
        job: 'pickup',
        runId: 'run-1',
        outcome: 'findings',
        summary: { files: 2, total: (2n ** 60n).toString() },
      });
      expect((await store.jobRuns.recent('pickup')).map((r) => r.id)).toEqual([run.id]);
    });

    it("gives the latest run of every job (the console's Today)", async () => {
      const older = await store.jobRuns.start('statements', 'run-a');
      await store.jobRuns.finish(older.id, 'ok');
      clock.advance(60_000);
      const newer = await store.jobRuns.start('statements', 'run-b');
      await store.jobRuns.finish(newer.id, 'failed');
      const nightly = await store.jobRuns.start('nightly', 'run-c');
      const latest = await store.jobRuns.latestPerJob();
      expect(latest.find((r) => r.job === 'statements')).toMatchObject({ id: newer.id, outcome: 'failed' });
      expect(latest.find((r) => r.job === 'nightly')).toMatchObject({ id: nightly.id, outcome: 'running' });
      expect(new Set(latest.map((r) => r.job)).size).toBe(latest.length);
    });

    it('pages the audit trail newest first by sequence number', async () => {
      for (let n = 0; n < 5; n++)
        await store.audit.append({
          actor: 'kari',
          action: 'test.page',
          subject: { type: 't', id: `page-${n}` },
          origin: 'test',
        });
      const first = await store.audit.page({ limit: 3, scope: 'all' });
      expect(first.map((e) => e.subject.id)).toEqual(['page-4', 'page-3', 'page-2']);
      const next = await store.audit.page({ limit: 3, before: first.at(-1)!.seq, scope: 'all' });
      expect(next.map((e) => e.subject.id).slice(0, 2)).toEqual(['page-1', 'page-0']);
    });

    approvalAndReportingCases(() => ({ store, clock }));
    consentCases(() => ({ store, clock }));
    bankAccountCases(() => ({ store, clock }));
    bureauCases(() => ({ store, clock, db }));
    decisionCases(() => ({ store, clock, db }));
    receivableCases(() => ({ store }));

    // Last: the suite above created, moved, cancelled, re-queued and purged payments, files
    // and bulks of many companies, each through the store as settle does.
    it('keeps the rows per state (the metrics counters) true through everything the suite did', async () => {
      expect(await stateCountDrift(db.knex)).toEqual({});
      const byState = await store.attention.countByState('payment');
      const rows: Row[] = await db.knex<Row>('payments').select('state').count({ n: '*' }).groupBy('state');
      expect(byState).toEqual(new Map(rows.map((r) => [String(r.state), Number(r.n)])));
      expect([...byState.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
    });
  });
}
