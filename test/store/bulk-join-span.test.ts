// A file's lines join their bulks through the lines of each bulk's span (BulkPlan.lineSpan, from
// planBulks), so planning a file costs in proportion to its lines. Without the span SQLite took
// the file's index for the join and walked every line of the file for each bulk: a file of
// 100,000 lines in bulks of 1,000 read ten million rows to plan, a file of a million a billion.
// MariaDB counts the rows its storage engine read and wrote; SQLite has no such counter, and there
// the join's plan is asked of the engine itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planBulks } from '../../src/domain/plans/bulk-plan.js';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines } from '../support/engines.js';
import { captureQueries, expectIndexRead } from '../support/query-plan.js';
import { rowsTouched } from '../support/rows-touched.js';
import { payment, paymentFile } from './fixtures.js';

const LINES = 2000;
const PER_BULK = 100;

await onBothEngines((engine, open) => {
  describe(`the lines joining their bulks (${engine})`, () => {
    let db: Database;
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      const target = await open();
      cleanup = () => target.cleanup();
      // One connection: MariaDB's session counters are the calls' own.
      db = await openDatabase({ url: target.url, poolMax: 1 });
      await db.migrate();
      store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
    });
    afterEach(async () => {
      await db.close();
      await cleanup();
    });

    async function fileOf(name: string, lines: number) {
      const stored = await store.files.recordAcceptedFile(
        paymentFile(name),
        Array.from({ length: lines }, (_, i) => payment(i + 1, { endToEndId: `${name}-${i + 1}` })),
      );
      const plannable = await store.payments.plannableByFile(stored.id);
      return { fileId: stored.id, plans: planBulks(plannable, { maxLines: PER_BULK, defaultBatchBooking: true }) };
    }

    it(`plans a file of ${LINES} lines into ${LINES / PER_BULK} bulks reading each line a few times, not once per bulk`, async () => {
      const { fileId, plans } = await fileOf('span', LINES);
      expect(plans.map((p) => p.lineSpan).slice(0, 2)).toEqual([
        { first: 1, last: PER_BULK },
        { first: PER_BULK + 1, last: 2 * PER_BULK },
      ]);
      const queries = captureQueries(db);
      const touched = await rowsTouched(db, engine, () => store.bulks.createBulks(fileId, plans));
      const joins = queries.filter((q) => /^update [`"]?payments[`"]? set .*bulk_id/i.test(q.sql));
      const bulks = await store.bulks.listByFile(fileId);
      expect(bulks.map((b) => b.lineCount)).toEqual(plans.map(() => PER_BULK));
      expect((await store.payments.listByBulk(bulks[3]!.id)).map((p) => p.lineNumber)).toEqual(
        Array.from({ length: PER_BULK }, (_, i) => 3 * PER_BULK + i + 1),
      );
      expect(joins).toHaveLength(LINES / PER_BULK);
      if (touched !== undefined) {
        // Walking the file for each bulk would read LINES × bulks = 40,000 rows.
        expect(touched, `rows touched planning ${LINES} lines`).toBeLessThan(10 * LINES);
      } else {
        // Every join reads the lines of its span, not the whole file (plan: `(file_id=?)` alone).
        for (const join of joins)
          await expectIndexRead(
            db,
            join,
            'payments_file_line_ix (file_id=? AND line_number>? AND line_number<?)',
            'the join',
          );
      }
    });

    it('refuses a plan whose span leaves out one of its lines, says which, and stores nothing of it', async () => {
      const { fileId, plans } = await fileOf('narrow', 3 * PER_BULK);
      const wrong = { ...plans[1]!, lineSpan: { first: plans[1]!.lineSpan.first + 1, last: plans[1]!.lineSpan.last } };
      const error = (await store.bulks.createBulks(fileId, [plans[0]!, wrong]).catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ code: 'ERR_DB_BULK_PLAN_INVALID' });
      expect(error.message).toContain(
        `(line ${PER_BULK + 1}) is outside its bulk plan's lines ${PER_BULK + 2}–${2 * PER_BULK}`,
      );
      expect(await store.bulks.listByFile(fileId)).toEqual([]);
      expect(new Set((await store.payments.listByFile(fileId)).map((p) => p.state))).toEqual(new Set(['accepted']));
    });
  });
});
