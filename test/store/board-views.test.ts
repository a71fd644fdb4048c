// The bureau's board on SQLite and on MariaDB: every company the reader may see is on it, even
// one with no row anywhere; a company that is not onboarded (no usable consent, or no enabled
// account) is red and first; the rest follow by what needs attention, then in configuration
// order; the filters and pages are the database's, and the figures are each company's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStore,
  openDatabase,
  type BoardQuery,
  type Database,
  type Row,
  type Store,
} from '../../src/store/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';
import { captureQueries, isSqlite } from '../support/query-plan.js';

const NOW = new Date('2026-01-05T08:00:00.000Z');
const LAST_NIGHT = '2026-01-05T02:00:00.000Z';
const LONG_AGO = '2025-12-01T02:00:00.000Z';
const stamp = { created_at: NOW.toISOString(), updated_at: NOW.toISOString() };
const STEPS = ['pickup', 'submit', 'fetch'];
/** Onboarded companies with nothing waiting: what fills the later pages. */
const QUIET = Array.from({ length: 7 }, (_, i) => `quiet-${i}`);
/** In configuration order. */
const COMPANIES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', ...QUIET];

function query(over: Partial<BoardQuery> = {}): BoardQuery {
  return {
    companies: COMPANIES,
    steps: STEPS,
    now: NOW,
    nightSince: new Date(NOW.getTime() - 86_400_000),
    consentHorizon: new Date('2026-01-12T08:00:00.000Z'),
    linkHorizon: new Date('2026-01-06T08:00:00.000Z'),
    ...over,
  };
}

async function seed(db: Database): Promise<void> {
  const k = db.knex;
  const onboarded = ['alpha', 'bravo', 'echo', ...QUIET];
  const consent = (company: string, status: string, expiresAt: string | null): Row => ({
    company,
    bank_id: 'testbank',
    consent_id: `c-${company}`,
    status,
    expires_at: expiresAt,
    status_at: NOW.toISOString(),
    source: 'refresh',
    ...stamp,
  });
  await k('consents').insert([
    ...onboarded.filter((c) => c !== 'bravo').map((c) => consent(c, 'Valid', '2027-01-01T00:00:00.000Z')),
    // bravo's consent is live, and expires within the warning period.
    consent('bravo', 'Authorized', '2026-01-09T00:00:00.000Z'),
    // delta has a live consent but no enabled account: not onboarded either.
    consent('delta', 'Valid', '2027-01-01T00:00:00.000Z'),
  ]);
  await k('accounts').insert([
    ...onboarded
      .filter((c) => c !== 'echo')
      .map((c) => ({ id: `acc-${c}`, company: c, iban: `NO-${c}`, account_status: 'enabled', ...stamp })),
    { id: 'acc-delta', company: 'delta', iban: 'NO-delta', account_status: 'blocked', ...stamp },
  ]);
  // echo's enabled account is known from the bank's account list alone.
  await k('bank_accounts').insert({
    company: 'echo',
    account_id: 'acc-echo',
    status: 'enabled',
    read_at: stamp.created_at,
  });
  // Last night every step completed for the onboarded ones but echo, whose steps last completed weeks ago.
  await k('job_successes').insert(
    onboarded.flatMap((company) =>
      STEPS.map((job) => ({ job, company, succeeded_at: company === 'echo' ? LONG_AGO : LAST_NIGHT, run_id: 'r1' })),
    ),
  );
  // bravo: two rejected files, a held NOK payment and an unknown EUR one, a waiting basket whose
  // link expires within the link warning, an open finding. Decided or absent findings, baskets
  // already approved and payments paid are on the board of nobody.
  await k('payment_files').insert(
    ['f1', 'f2', 'f3'].map((id, i) => ({
      id,
      company: 'bravo',
      file_name: `${id}.csv`,
      sha256: id.padEnd(64, '0'),
      format: 'csv:test',
      size_bytes: 1,
      received_at: NOW.toISOString(),
      state: i < 2 ? 'rejected' : 'accepted',
      ...stamp,
    })),
  );
  const payment = (id: string, company: string, state: string, minor: number, currency: string): Row => ({
    id,
    file_id: 'f3',
    line_number: Number(id.slice(1)),
    company,
    end_to_end_id: id,
    debtor_iban: 'NO9386011117947',
    debtor_name: 'Bravo AS',
    execution_date: '2026-01-06',
    amount_minor: minor,
    currency,
    creditor_iban: 'NO8330001234567',
    creditor_name: 'Supplier',
    creditor_name_folded: 'supplier',
    state,
    ...stamp,
  });
  await k('payments').insert([
    payment('p1', 'bravo', 'held', 10_000, 'NOK'),
    payment('p2', 'bravo', 'held', 2_550, 'NOK'),
    payment('p3', 'bravo', 'unknown', 99_900, 'EUR'),
    payment('p4', 'bravo', 'ACSC', 5_000_000, 'NOK'),
  ]);
  await k('state_counts').insert([
    { kind: 'payment_file', company: 'bravo', state: 'rejected', n: 2 },
    { kind: 'payment_file', company: 'bravo', state: 'accepted', n: 1 },
    { kind: 'payment', company: 'bravo', state: 'held', n: 2 },
    { kind: 'payment', company: 'bravo', state: 'unknown', n: 1 },
    { kind: 'payment', company: 'bravo', state: 'ACSC', n: 1 },
    // A counter at zero (everything moved on) counts nothing.
    { kind: 'payment', company: 'alpha', state: 'held', n: 0 },
  ]);
  const basket = (id: string, company: string, state: string, expires: string | null): Row => ({
    id,
    company,
    idempotency_key: `k-${id}`,
    sca_link: expires ? 'https://bank.example/approve' : null,
    sca_link_expires_at: expires,
    state,
    ...stamp,
  });
  await k('baskets').insert([
    basket('b1', 'bravo', 'link_issued', '2026-01-05T20:00:00.000Z'),
    basket('b2', 'bravo', 'created', null),
    basket('b3', 'alpha', 'authorised', '2026-01-05T20:00:00.000Z'),
  ]);
  const finding = (id: string, company: string, present: boolean, decision: string): Row => ({
    company,
    id,
    type: 'unmatched_payment',
    fact_hash: 'h',
    subject: `payment ${id}`,
    summary: 'not booked',
    first_seen_at: NOW.toISOString(),
    last_seen_at: NOW.toISOString(),
    last_run_id: 'run-1',
    present,
    decision,
  });
  await k('findings').insert([
    finding('F1', 'bravo', true, 'open'),
    finding('F2', 'bravo', true, 'acknowledged'),
    finding('F3', 'alpha', false, 'open'),
  ]);
}

const contract: EngineSuite = (name, open) => {
  describe(`the board on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock(NOW.toISOString()));
      await seed(db);
    }, 120_000);

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('puts the companies not onboarded first and red, then what needs attention, then the rest in configuration order', async () => {
      const board = await store.board.page(query());
      expect(board.rows.map((r) => r.company)).toEqual(['charlie', 'delta', 'echo', 'bravo', 'alpha', ...QUIET]);
      expect(board.counts).toEqual({ all: 12, needsAttention: 4, notOnboarded: 2 });
      expect(board).toMatchObject({ page: 1, total: 12, pages: 1 });
      const [charlie, delta, echo, bravo, alpha] = board.rows;
      // charlie has no row anywhere, and is on the board all the same.
      expect(charlie).toMatchObject({ onboarded: false, liveConsents: 0, enabledAccount: false, needsAttention: true });
      expect(delta).toMatchObject({ onboarded: false, liveConsents: 1, enabledAccount: false, needsAttention: true });
      expect(echo).toMatchObject({ onboarded: true, enabledAccount: true, stepsMissed: 3, needsAttention: true });
      expect(echo!.steps.map((s) => [s.job, s.done, s.lastSuccess?.toISOString()])).toEqual(
        STEPS.map((job) => [job, false, LONG_AGO]),
      );
      expect(alpha).toMatchObject({ onboarded: true, stepsMissed: 0, needsAttention: false, heldPayments: 0 });
      expect(alpha!.steps.every((s) => s.done)).toBe(true);
      expect(alpha!.atStake).toEqual([]);
      expect(bravo).toMatchObject({
        onboarded: true,
        stepsMissed: 0,
        rejectedFiles: 2,
        heldPayments: 2,
        unknownPayments: 1,
        approvalsWaiting: 2,
        linksExpiring: 1,
        openFindings: 1,
        consentsExpiring: 1,
        needsAttention: true,
      });
      expect(bravo!.atStake).toEqual([
        { currency: 'EUR', minor: 99_900n },
        { currency: 'NOK', minor: 12_550n },
      ]);
      expect(charlie!.steps.map((s) => s.done)).toEqual([false, false, false]);
    });

    it('filters in the database: needs attention, not onboarded', async () => {
      const attention = await store.board.page(query({ filter: 'needs-attention' }));
      expect(attention.rows.map((r) => r.company)).toEqual(['charlie', 'delta', 'echo', 'bravo']);
      expect(attention.total).toBe(4);
      const red = await store.board.page(query({ filter: 'not-onboarded' }));
      expect(red.rows.map((r) => r.company)).toEqual(['charlie', 'delta']);
      expect(red.rows.every((r) => !r.onboarded)).toBe(true);
      expect(red.counts).toEqual({ all: 12, needsAttention: 4, notOnboarded: 2 });
    });

    it('pages: each company once across the pages, and a page past the last is empty with the counts', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const board = await store.board.page(query({ page, pageSize: 5 }));
        expect(board).toMatchObject({ page, pageSize: 5, total: 12, pages: 3 });
        seen.push(...board.rows.map((r) => r.company));
      }
      expect(seen).toEqual(['charlie', 'delta', 'echo', 'bravo', 'alpha', ...QUIET]);
      const past = await store.board.page(query({ page: 9, pageSize: 5 }));
      expect(past.rows).toEqual([]);
      expect(past.counts).toEqual({ all: 12, needsAttention: 4, notOnboarded: 2 });
    });

    it('counts the open findings and the waiting baskets of every company through their board indexes', async () => {
      const queries = captureQueries(db);
      await store.board.page(query());
      const board = queries.find((q) => q.sql.startsWith('with c (company, position) as (values'))!;
      const explained: unknown = await db.knex.raw(
        `explain ${isSqlite(db) ? 'query plan ' : ''}${board.sql}`,
        board.bindings as never,
      );
      const plan = isSqlite(db)
        ? (explained as { detail: string }[]).map((r) => r.detail)
        : (explained as [Row[]])[0].map(
            (r) => `${String(r.table)} ${String(r.type)} ${String(r.key)} ${String(r.Extra)}`,
          );
      const text = plan.join('\n');
      // The grouped reads of findings and baskets each go through their own index, covering.
      expect(text, text).toMatch(/findings_board_ix/);
      expect(text, text).toMatch(/baskets_board_ix/);
    });

    it("sums the money at stake through the console's state index", async () => {
      if (!isSqlite(db)) return; // MariaDB's index holds every line; SQLite's only the states at rest (0768)
      const queries = captureQueries(db);
      await store.board.page(query());
      const stake = queries.find((q) => /sum\([`"]?amount_minor/.test(q.sql))!;
      const plan = await db.knex.raw<{ detail: string }[]>(`explain query plan ${stake.sql}`, stake.bindings as never);
      expect(plan.map((r) => r.detail).join('\n')).toMatch(/payments_console_state_ix/);
    });

    it('shows only the companies the reader may see', async () => {
      const board = await store.board.page(query({ companies: ['alpha', 'bravo'] }));
      expect(board.rows.map((r) => r.company)).toEqual(['bravo', 'alpha']);
      expect(board.counts).toEqual({ all: 2, needsAttention: 1, notOnboarded: 0 });
    });
  });
};

await onBothEngines(contract);
