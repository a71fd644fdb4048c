// Verification of the audit trail from its last checkpoint, on SQLite and MariaDB: a walk records
// a checkpoint where the chain held; a walk from it sees a change after it (and of its own
// entry) but not one before it, which only the walk from the first entry finds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, type AuditEntry, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';

const contract: EngineSuite = (name, open) => {
  describe(`audit checkpoints on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;
    const entries: AuditEntry[] = [];
    const append = async (n: number) => {
      for (let i = 0; i < n; i++)
        entries.push(
          await store.audit.append({
            actor: 'test',
            action: 'finding.acknowledge',
            subject: { type: 'finding', id: `F${entries.length + 1}` },
            reason: 'seen',
            origin: 'test',
          }),
        );
    };
    /** Changes an entry's reason behind the trail's back, as someone with the database could. */
    const tamper = (seq: number, reason: string) => db.knex('audit_trail').where({ seq }).update({ reason });

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
    });
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('records a checkpoint at the head when a walk finds the chain whole', async () => {
      expect(await store.audit.lastCheckpoint()).toBeUndefined();
      await append(5);
      expect(await store.audit.verify()).toMatchObject({ ok: true, entries: 5 });
      expect(await store.audit.lastCheckpoint()).toMatchObject({
        seq: entries[4]!.seq,
        hash: entries[4]!.hash,
        entries: 5,
      });
      await append(3);
      const fromCheckpoint = await store.audit.verify({ from: 'checkpoint' });
      expect(fromCheckpoint).toMatchObject({ ok: true, entries: 8, headHash: entries[7]!.hash });
      expect(fromCheckpoint.from?.seq).toBe(entries[4]!.seq);
      expect((await store.audit.lastCheckpoint())?.seq).toBe(entries[7]!.seq);
    });

    it('misses a change before the checkpoint that the walk from the first entry finds', async () => {
      const checkpoint = (await store.audit.lastCheckpoint())!;
      await tamper(entries[1]!.seq, 'rewritten');
      expect(await store.audit.verify({ from: 'checkpoint' })).toMatchObject({ ok: true, entries: 8 });
      const full = await store.audit.verify();
      expect(full).toMatchObject({ ok: false, brokenAt: entries[1]!.seq });
      expect(full.from).toBeUndefined();
      // A broken walk records nothing past the break.
      expect(await store.audit.lastCheckpoint()).toEqual(checkpoint);
      await tamper(entries[1]!.seq, 'seen');
      expect((await store.audit.verify()).ok).toBe(true);
    });

    it('finds a change after the checkpoint, and a change of the checkpoint entry itself', async () => {
      await append(2); // entries 9, 10; the checkpoint stays at 8
      await tamper(entries[8]!.seq, 'rewritten');
      const after = await store.audit.verify({ from: 'checkpoint' });
      expect(after).toMatchObject({ ok: false, brokenAt: entries[8]!.seq });
      expect(after.from?.seq).toBe(entries[7]!.seq);
      expect(await store.audit.verify()).toMatchObject({ ok: false, brokenAt: entries[8]!.seq });
      await tamper(entries[8]!.seq, 'seen');

      await tamper(entries[7]!.seq, 'rewritten');
      const at = await store.audit.verify({ from: 'checkpoint' });
      expect(at).toMatchObject({ ok: false, brokenAt: entries[7]!.seq });
      if (!at.ok) expect(at.problem).toContain('last checkpoint');
      await tamper(entries[7]!.seq, 'seen');
      expect(await store.audit.verify({ from: 'checkpoint' })).toMatchObject({ ok: true, entries: 10 });
    });
  });
};

await onBothEngines(contract);
