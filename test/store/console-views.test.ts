// The console's read models' paging contract, on SQLite and on MariaDB: keyset pages over rows
// with equal sort keys lose and repeat nothing, filters narrow, a bad cursor is refused, and on
// SQLite each list's query is an index search (migration 0240), never a table scan or a sort.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { BadCursorError, createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { AT_REST_CONDITION, stateRoute } from '../../src/store/state-index.js';
import { allPages } from '../support/keyset.js';
import { captureQueries, expectIndexRead, isSqlite, type CapturedQuery } from '../support/query-plan.js';
import { payment, paymentFile } from './fixtures.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';

const LINES = 137;

const contract: EngineSuite = (name, open) => {
  describe(`console read models on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;
    const clock = new ManualClock('2026-01-05T08:00:00Z');
    let queries: CapturedQuery[] = [];

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, clock);
      // Two files received at the same instant, so file paging has equal sort keys too.
      for (const [k, file] of ['one', 'two', 'three'].entries()) {
        const lines = Array.from({ length: LINES }, (_, i) =>
          payment(i + 1, {
            endToEndId: `${file}-${i + 1}`,
            // Every line of a file on one of two days, many with the same amount and creditor.
            requestedExecutionDate: (i % 2 ? '2026-01-06' : '2026-01-07') as LocalDate,
            amount: { minor: i % 3 === 0 ? 100_00n : BigInt(i + 1), currency: 'NOK' },
            creditorName: i % 5 === 0 ? 'Nordic Supplies AS' : `Supplier ${i}`,
            ...(i % 7 === 0 ? { creditorReference: 'KID-42' } : {}),
          }),
        );
        await store.files.recordAcceptedFile(paymentFile(`${file}-${k}`), lines);
      }
      await store.files.recordAcceptedFile(paymentFile('other', { company: 'other' }), [payment(1)]);
      queries = captureQueries(db);
    });

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('pages through every payment once, across page boundaries with equal sort keys', async () => {
      const { rows, pages } = await allPages((q) => store.consoleViews.searchPayments({ company: 'acme', ...q }), 10);
      expect(rows).toHaveLength(3 * LINES);
      expect(new Set(rows.map((p) => p.id)).size).toBe(3 * LINES);
      expect(pages).toBe(Math.ceil((3 * LINES) / 10));
      expect(rows.every((p) => p.company === 'acme')).toBe(true);
      // Newest execution date first, then by id descending.
      const keys = rows.map((p) => `${p.requestedExecutionDate}|${p.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
    });

    it('narrows by amount, creditor, reference, dates and state, and pages the narrowed list', async () => {
      const byAmount = await allPages(
        (q) => store.consoleViews.searchPayments({ company: 'acme', amountMinor: 100_00n, ...q }),
        4,
      );
      expect(byAmount.rows.length).toBe(3 * Math.ceil(LINES / 3));
      expect(byAmount.rows.every((p) => p.amount.minor === 100_00n)).toBe(true);
      const byName = await allPages(
        (q) => store.consoleViews.searchPayments({ company: 'acme', creditorNamePrefix: 'Nordic', ...q }),
        5,
      );
      expect(byName.rows.length).toBe(3 * Math.ceil(LINES / 5));
      const byReference = await store.consoleViews.searchPayments({ company: 'acme', reference: 'KID-42', limit: 200 });
      expect(byReference.rows.length).toBe(3 * Math.ceil(LINES / 7));
      const oneDay = await allPages(
        (q) =>
          store.consoleViews.searchPayments({
            company: 'acme',
            from: '2026-01-07' as LocalDate,
            to: '2026-01-07' as LocalDate,
            ...q,
          }),
        9,
      );
      expect(oneDay.rows.length).toBe(3 * Math.ceil(LINES / 2));
      const e2e = await store.consoleViews.searchPayments({ company: 'acme', endToEndId: 'two-17' });
      expect(e2e.rows.map((p) => p.endToEndId)).toEqual(['two-17']);
      expect((await store.consoleViews.searchPayments({ company: 'acme', states: ['sent'] })).rows).toEqual([]);
      expect((await store.consoleViews.searchPayments({ company: 'other', endToEndId: 'two-17' })).rows).toEqual([]);
    });

    it('pages files received at the same instant without losing one', async () => {
      const { rows } = await allPages((q) => store.consoleViews.files('acme', q), 1);
      expect(rows.map((f) => f.fileName).sort()).toEqual(['one-0.csv', 'three-2.csv', 'two-1.csv']);
      const lines = await allPages((q) => store.consoleViews.fileLines(rows[0]!.id, q), 20);
      expect(lines.rows.map((p) => p.lineNumber)).toEqual(Array.from({ length: LINES }, (_, i) => i + 1));
    });

    it('pages findings with equal first-seen times', async () => {
      await store.findings.recordRun(
        'acme',
        'run-1',
        Array.from({ length: 23 }, (_, i) => ({
          id: `F${String(i).padStart(3, '0')}`,
          type: 'unmatched_payment',
          factHash: `h${i}`,
          subject: `payment one-${i + 1}`,
          summary: 'not booked',
        })),
      );
      const { rows } = await allPages((q) => store.consoleViews.findings('acme', q), 4);
      expect(rows.map((f) => f.id).sort()).toEqual(
        Array.from({ length: 23 }, (_, i) => `F${String(i).padStart(3, '0')}`),
      );
    });

    it('pages waiting baskets of both waiting states, with their totals', async () => {
      const [file] = (await store.consoleViews.files('acme', { limit: 1 })).rows;
      const lines = (await store.consoleViews.fileLines(file!.id, { limit: 10 })).rows;
      const bulks = await store.bulks.createBulks(
        file!.id,
        lines.map((p, i) => ({
          position: i,
          debtorIban: p.debtorIban,
          executionDate: p.requestedExecutionDate,
          batchBooking: false,
          paymentIds: [p.id],
        })),
      );
      for (const [i, bulk] of bulks.entries()) {
        const basket = await store.baskets.create('acme', [bulk.id]);
        await store.baskets.markCreated(basket.id, `BB-${i}`);
        if (i % 3 === 0) await store.baskets.issueLink(basket.id, `https://bank.example/${i}`, new Date('2026-02-01'));
      }
      const { rows } = await allPages((q) => store.consoleViews.waitingBaskets('acme', q), 3);
      expect(rows).toHaveLength(10);
      expect(new Set(rows.map((b) => b.bankBasketId)).size).toBe(10);
      expect(rows.filter((b) => b.hasLink)).toHaveLength(4);
      expect(rows.every((b) => b.lineCount === 1 && b.bulkCount === 1)).toBe(true);
      const byBank = new Map(rows.map((b) => [b.bankBasketId, b]));
      expect(byBank.get('BB-0')!.totals).toEqual({ NOK: lines[0]!.amount.minor });
      expect((await store.consoleViews.waitingBaskets('other')).rows).toEqual([]);
    });

    it('pages the consents of the company by bank, each once', async () => {
      for (const company of ['acme', 'other'])
        for (let i = 0; i < 7; i++)
          await store.consents.record({
            company,
            bankId: `bank-${i}`,
            consentId: `${company}-consent-${i}`,
            status: 'Valid',
            statusAt: new Date('2026-01-01T00:00:00Z'),
            source: 'onboarding',
          });
      const { rows, pages } = await allPages((q) => store.consoleViews.consents('acme', q), 3);
      expect(rows.map((c) => c.consentId)).toEqual(Array.from({ length: 7 }, (_, i) => `acme-consent-${i}`));
      expect(pages).toBe(3);
    });

    it('refuses a cursor that does not decode', async () => {
      await expect(store.consoleViews.searchPayments({ company: 'acme', after: 'bm90LWpzb24' })).rejects.toBeInstanceOf(
        BadCursorError,
      );
      await expect(store.consoleViews.files('acme', { after: '!!' })).rejects.toBeInstanceOf(BadCursorError);
    });

    it('answers each list with an index search, never a scan or a sort', async () => {
      const cursor = (await store.consoleViews.searchPayments({ company: 'acme', limit: 3 })).next!;
      const cases: [string, () => Promise<unknown>, string][] = [
        [
          'date',
          () => store.consoleViews.searchPayments({ company: 'acme', after: cursor }),
          'payments_console_date_ix',
        ],
        [
          'amount',
          () => store.consoleViews.searchPayments({ company: 'acme', amountMinor: 100_00n, after: cursor }),
          'payments_console_amount_ix',
        ],
        [
          'state',
          () => store.consoleViews.searchPayments({ company: 'acme', states: ['accepted'] }),
          'payments_console_state_ix',
        ],
        [
          'reference',
          () => store.consoleViews.searchPayments({ company: 'acme', reference: 'KID-42' }),
          'payments_console_reference_ix',
        ],
        [
          'creditor iban',
          () => store.consoleViews.searchPayments({ company: 'acme', creditorIban: 'NO8330001234567' }),
          'payments_console_creditor_iban_ix',
        ],
        ['files', () => store.consoleViews.files('acme'), 'payment_files_console_ix'],
        ['findings', () => store.consoleViews.findings('acme'), 'findings_console_ix'],
        ['baskets', () => store.consoleViews.waitingBaskets('acme'), 'baskets_console_ix'],
        [
          'consents',
          () => store.consoleViews.consents('acme', { after: 'WyJiYW5rLTEiXQ' }),
          'sqlite_autoindex_consents_1',
        ],
      ];
      for (const [label, run, index] of cases) {
        queries.length = 0;
        await run();
        const first = queries[0]!;
        // Only the payments hold enough rows here to test MariaDB's plan: its cost model reads a
        // table of a few dozen rows whole whatever its indexes, so the other cases would test
        // the cost model. Where a filter is not selective here (every line is in one state) it
        // may walk another index in order; what counts is an index read with no sort.
        if (isSqlite(db) || !['files', 'findings', 'baskets', 'consents'].includes(label))
          await expectIndexRead(db, first, index, label);
      }
    });

    // Last: it puts file one's lines in a bulk. On SQLite the state index holds only the states at
    // rest (migration 0768); a bulk's states are found by date, and one no line is in by the counters.
    it("finds a bulk's few lines by their state through the bulk, and a state no line is in without reading payments", async () => {
      const file = await db.knex('payment_files').where({ company: 'acme' }).orderBy('file_name').first('id');
      const lines = (await db.knex('payments').where({ file_id: file.id }).pluck('id')) as string[];
      await store.bulks.createBulks(file.id as string, [
        {
          position: 0,
          debtorIban: 'NO9386011117947',
          executionDate: '2026-01-07' as LocalDate,
          batchBooking: false,
          paymentIds: lines,
        },
      ]);
      queries.length = 0;
      const queued = await allPages(
        (q) => store.consoleViews.searchPayments({ company: 'acme', states: ['queued'], ...q }),
        7,
      );
      const inState = async (state: string) =>
        new Set((await db.knex('payments').where({ company: 'acme', state }).pluck('id')) as string[]);
      expect(new Set(queued.rows.map((p) => p.id))).toEqual(await inState('queued'));
      expect(queued.rows.map((p) => p.id)).toEqual(expect.arrayContaining(lines));
      const keys = queued.rows.map((p) => `${p.requestedExecutionDate}|${p.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
      // Few lines, in one bulk: read through the bulk's index and sorted, not by walking every date.
      const read = queries.find((q) => /from [`"]?payments[`"]?/i.test(q.sql))!;
      if (isSqlite(db)) {
        const plan: { detail: string }[] = await db.knex.raw(`explain query plan ${read.sql}`, read.bindings as never);
        expect(plan.map((p) => p.detail).join('; ')).toMatch(/^SEARCH payments USING INDEX payments_bulk_ix/);
      }
      // More lines than a search reads through their bulks, or lines in no bulk: by date; states at rest: the index.
      expect(await stateRoute(db.knex, 'acme', ['queued'], 100)).toEqual({ via: 'date' });
      expect(await stateRoute(db.knex, 'acme', ['queued', 'accepted'], 100_000)).toEqual({ via: 'date' });
      expect(await stateRoute(db.knex, 'acme', ['held', 'RJCT'])).toEqual({ via: 'index' });
      // Bulks' counts that do not add up to the company's counter (an older instance moved lines
      // without them): by date, and every line is still found.
      const [counted] = await db.knex('bulk_line_counts').where({ state: 'queued' }).pluck('bulk_id');
      await db.knex('bulk_line_counts').where({ bulk_id: counted, state: 'queued' }).delete();
      expect(await stateRoute(db.knex, 'acme', ['queued'])).toEqual({ via: 'date' });
      const byDate = await allPages(
        (q) => store.consoleViews.searchPayments({ company: 'acme', states: ['queued'], ...q }),
        7,
      );
      expect(new Set(byDate.rows.map((p) => p.id))).toEqual(await inState('queued'));
      const waiting = await allPages(
        (q) => store.consoleViews.searchPayments({ company: 'acme', states: ['accepted'], ...q }),
        50,
      );
      expect(new Set(waiting.rows.map((p) => p.id))).toEqual(await inState('accepted'));
      queries.length = 0;
      expect(await store.consoleViews.searchPayments({ company: 'acme', states: ['ACSC', 'sent'] })).toEqual({
        rows: [],
      });
      expect(queries.map((q) => q.sql).filter((sql) => /payments/.test(sql))).toEqual([]);
      if (isSqlite(db)) {
        const [index] = await db.knex('sqlite_master').where({ name: 'payments_console_state_ix' }).pluck('sql');
        expect(index).toBe(
          `CREATE INDEX payments_console_state_ix on payments (company, state, execution_date, id) where ${AT_REST_CONDITION}`,
        );
      }
    });
  });
};

await onBothEngines(contract);
