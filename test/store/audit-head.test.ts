// The audit trail's head kept outside the database, on SQLite and MariaDB: deleting the newest
// entries leaves a chain that still holds, so only a head kept elsewhere finds it. Each committed
// entry tells its head (the app logs it); an entry rolled back with its decision tells nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, rollbackOnly, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';

const contract: EngineSuite = (name, open) => {
  describe(`the audit head kept elsewhere, on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;
    const heads: string[] = [];
    const entry = (id: string) => ({
      actor: 'test',
      action: 'finding.acknowledge',
      subject: { type: 'finding', id },
      reason: 'seen',
      origin: 'test',
    });

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
      store.audit.onAppend((head) => heads.push(head.hash));
    });
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('finds the newest entries deleted through a head kept elsewhere, which the chain alone does not', async () => {
      for (const id of ['F1', 'F2', 'F3']) await store.audit.append(entry(id));
      expect(heads).toHaveLength(3);
      const kept = heads.at(-1)!;
      expect(await store.audit.holdsHead(kept)).toBe(true);
      expect(await store.audit.holdsHead(heads[0]!)).toBe(true);
      await db.knex('audit_trail').where({ hash: kept }).delete();
      expect((await store.audit.verify()).ok).toBe(true); // the shorter chain still holds
      expect(await store.audit.holdsHead(kept)).toBe(false);
    });

    it('tells the head of an entry once its transaction commits, and never of one rolled back', async () => {
      const before = heads.length;
      await db.knex.transaction(async (trx) => {
        await store.audit.append(entry('F4'), trx);
        expect(heads).toHaveLength(before);
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(heads).toHaveLength(before + 1);
      await expect(
        db.knex.transaction(async (trx) => {
          await store.audit.append(entry('F5'), trx);
          throw new Error('the decision failed');
        }),
      ).rejects.toThrow('the decision failed');
      await new Promise((resolve) => setImmediate(resolve));
      expect(heads).toHaveLength(before + 1);
    });

    it("tells no head of a dry run's entries, which are rolled back with everything it did", async () => {
      const { db: dry, rollback } = await rollbackOnly(db, await db.migrationStatus());
      const told: string[] = [];
      const dryStore = createStore(dry, new ManualClock('2026-01-05T08:00:00Z'));
      dryStore.audit.onAppend((head) => told.push(head.hash));
      await dryStore.audit.append(entry('F6'));
      await dry.transaction((trx) => dryStore.audit.append(entry('F7'), trx));
      await new Promise((resolve) => setImmediate(resolve));
      await rollback();
      expect(told).toEqual([]);
    });
  });
};

await onBothEngines(contract);
