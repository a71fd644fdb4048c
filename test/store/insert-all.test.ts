// insertAll puts a batch that fits in one statement in without BEGIN/COMMIT: the statement is
// atomic by itself on both engines, so a clash on its last row leaves none of its rows behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, type Database } from '../../src/store/index.js';
import { insertAll } from '../../src/store/insert-all.js';
import { isUniqueViolation } from '../../src/store/rows.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';

const row = (day: string, number: number) => ({
  account_id: 'ia-acct',
  day,
  year: 2026,
  number,
  assigned_at: '2026-01-05T08:00:00.000Z',
});

const suite: EngineSuite = (name, open) => {
  describe(`insertAll on ${name}`, () => {
    let target: EngineTarget | undefined;
    let db: Database | undefined;
    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      await createStore(db, new ManualClock('2026-01-05T08:00:00.000Z')).statements.upsertAccount({
        id: 'ia-acct',
        company: 'ia',
        currency: 'NOK',
      });
    });
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('inserts all rows of one statement or none when the last one clashes', async () => {
      await insertAll(db!, 'legal_sequence_numbers', [row('2026-01-10', 10)]);
      const batch = Array.from({ length: 9 }, (_, i) => row(`2026-01-0${i + 1}`, i + 1)).concat(row('2026-01-11', 10));
      const error = await insertAll(db!, 'legal_sequence_numbers', batch).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(error)).toBe(true);
      const days = await db!.knex('legal_sequence_numbers').where({ account_id: 'ia-acct' }).pluck('day');
      expect(days).toEqual(['2026-01-10']);
    });
  });
};

await onBothEngines(suite);
