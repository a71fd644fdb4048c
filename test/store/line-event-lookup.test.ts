// A line's status event names its payment by end-to-end id within a bulk (jobs/status/apply.ts).
// Reading the bulk's lines to find it cost a whole bulk per event, and a bulk of n lines gets about
// 2n events: the lookup goes through the company's unique index of end-to-end ids, one row. And
// whether every line of a bulk is final, asked by each line that became final, is answered by the
// bulk's counts of its lines while a line is not, and confirmed by the lines once they say all are.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { TERMINAL_BANK_STATUSES } from '../../src/domain/states.js';
import { createStore, openDatabase, type Row } from '../../src/store/index.js';
import { onBothEngines, withMigrated } from '../support/engines.js';
import { captureQueries, isSqlite } from '../support/query-plan.js';
import { rowsTouched } from '../support/rows-touched.js';
import { bulkOfLines } from './fixtures.js';

await onBothEngines((engine, open) => {
  describe(`a line's status event finds its payment (${engine})`, () => {
    it('by end-to-end id within its bulk, through the unique index, and nowhere else', async () => {
      await withMigrated(open, async (db) => {
        const store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
        const { lines, bulk } = await bulkOfLines(store, 'evt', 200);
        const other = await bulkOfLines(store, 'other', 3);
        expect(await store.payments.idInBulk(bulk.id, 'evt-137')).toBe(lines[136]!.id);
        // Another bulk's line, an unknown end-to-end id and an unknown bulk find nothing.
        expect(await store.payments.idInBulk(bulk.id, 'other-2')).toBeUndefined();
        expect(await store.payments.idInBulk(other.bulk.id, 'evt-137')).toBeUndefined();
        expect(await store.payments.idInBulk(bulk.id, 'evt-999')).toBeUndefined();
        expect(await store.payments.idInBulk('no-such-bulk', 'evt-1')).toBeUndefined();

        const queries = captureQueries(db);
        await store.payments.idInBulk(bulk.id, 'evt-137');
        const read = queries.find((q) => /from [`"]?payments[`"]?/.test(q.sql))!;
        if (isSqlite(db)) {
          const plan: { detail: string }[] = await db.knex.raw(
            `explain query plan ${read.sql}`,
            read.bindings as never,
          );
          expect(plan.map((p) => p.detail).join('; ')).toContain('payments_company_e2e_uq');
        } else {
          const [plan] = (await db.knex.raw(`explain ${read.sql}`, read.bindings as never)) as [Row[]];
          expect(plan.map((r) => r.key)).toEqual(['payments_company_e2e_uq']);
        }
      });
    });

    it('tells whether every line of a bulk is in the given states', async () => {
      await withMigrated(open, async (db) => {
        const store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
        const { bulk } = await bulkOfLines(store, 'all', 3);
        expect(await store.payments.bulkAllIn(bulk.id, ['queued'])).toBe(true);
        expect(await store.payments.bulkAllIn(bulk.id, ['ACSC', 'RJCT'])).toBe(false);
        expect(await store.payments.bulkAllIn('no-such-bulk', ['ACSC'])).toBe(true);
      });
    });

    it('answers "not yet" from the bulk\'s counts, not from the lines already final', async () => {
      const target = await open();
      // One connection: MariaDB's session counters are the calls' own.
      const db = await openDatabase({ url: target.url, poolMax: 1 });
      try {
        await db.migrate();
        const store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
        const { lines, bulk } = await bulkOfLines(store, 'order', 400);
        const final = [...TERMINAL_BANK_STATUSES];
        // The bank's events in line order: every line but the last is final.
        const first = lines.slice(0, -1).map((l) => l.id);
        await store.payments.applyBankStatus(first, { status: 'ACSC', cause: 'test', source: 'event' });
        const touched = await rowsTouched(db, engine, async () => {
          expect(await store.payments.bulkAllIn(bulk.id, final)).toBe(false);
        });
        // Reading the lines for the first one not final read the 399 final ones before it.
        if (touched !== undefined) expect(touched).toBeLessThan(20);
        await store.payments.applyBankStatus([lines.at(-1)!.id], { status: 'RJCT', cause: 'test', source: 'event' });
        expect(await store.payments.bulkAllIn(bulk.id, final)).toBe(true);

        // Counts that say every line is final while one is not: the lines have the last word.
        const other = await bulkOfLines(store, 'drift', 3);
        await store.payments.applyBankStatus([other.lines[0]!.id], { status: 'ACSC', cause: 'test', source: 'event' });
        await db.knex('bulk_line_counts').where({ bulk_id: other.bulk.id }).delete();
        expect(await store.payments.bulkAllIn(other.bulk.id, final)).toBe(false);
      } finally {
        await db.close();
        await target.cleanup();
      }
    });
  });
});
