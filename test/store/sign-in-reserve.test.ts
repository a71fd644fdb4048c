// The sign-in limit is one atomic step in the database: attempts arriving at once, through two
// handles on the same database (two settle instances), are counted one after another, so no
// more than the limit are ever let through to the password check; and a form token is used once.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { openDatabase, SignInFailures, type Database } from '../../src/store/index.js';
import { onBothEngines, withMigrated } from '../support/engines.js';

const LIMITS = { perUser: 5, perAddress: 1000, windowMs: 15 * 60_000 };

await onBothEngines((engine, open) => {
  describe(`sign-in reservations on ${engine}`, () => {
    it('lets at most the limit through among 60 attempts at once from two instances', async () => {
      const target = await open();
      const dbs: Database[] = [];
      try {
        dbs.push(await openDatabase({ url: target.url }));
        await dbs[0]!.migrate();
        dbs.push(await openDatabase({ url: target.url }));
        const instances = dbs.map((db) => new SignInFailures(db, systemClock));
        const results = await Promise.all(
          Array.from({ length: 60 }, (_, i) => instances[i % 2]!.reserve('kari', `10.0.0.${i % 7}`, LIMITS)),
        );
        expect(results.filter((r) => r.allowed)).toHaveLength(5);
        expect(results.filter((r) => !r.allowed && r.by === 'user')).toHaveLength(55);
        expect((await instances[0]!.count('kari', '10.0.0.1', LIMITS.windowMs)).byUser).toBe(5);
      } finally {
        for (const db of dbs) await db.close();
        await target.cleanup();
      }
    }, 60_000);

    it('takes a right password back and clears the name, not the address', async () => {
      await withMigrated(open, async (db) => {
        const failures = new SignInFailures(db, systemClock);
        await failures.reserve('kari', '10.0.0.1', LIMITS);
        await failures.reserve('ola', '10.0.0.1', LIMITS);
        const mine = await failures.reserve('kari', '10.0.0.1', LIMITS);
        if (!mine.allowed) throw new Error('refused');
        await failures.succeeded('kari', mine.attemptId);
        expect(await failures.count('kari', '10.0.0.1', LIMITS.windowMs)).toMatchObject({ byUser: 0, byAddress: 1 });
      });
    }, 60_000);

    it('uses a form token once, even when it arrives twenty times at once', async () => {
      await withMigrated(open, async (db) => {
        const failures = new SignInFailures(db, systemClock);
        const uses = await Promise.all(Array.from({ length: 20 }, () => failures.useFormToken('tok-1', 600_000)));
        expect(uses.filter(Boolean)).toHaveLength(1);
        expect(await failures.useFormToken('tok-2', 600_000)).toBe(true);
        const stored = JSON.stringify(await db.knex('sign_in_form_tokens').select('*'));
        expect(stored).not.toContain('tok-1');
      });
    }, 60_000);
  });
});
