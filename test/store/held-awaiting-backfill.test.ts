// Migration 0560: a line released from its hold before the upgrade and not yet in a bulk still
// waits for one after it (the next submit sends it); held lines undecided, dropped or already in
// a bulk wait for none.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { createStore, MIGRATIONS, openDatabase } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { withTempDir } from '../support/tmp.js';
import { payment, paymentFile, holdDuplicatesSince } from './fixtures.js';

it('marks the holds released before migration 0560 whose lines are in no bulk as waiting for one', async () => {
  await withTempDir(async (dir) => {
    const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
    // Every migration but 0560, so that today's store can write the lines (later migrations added
    // columns it writes); 0560 then runs last, on the decisions as the older code wrote them.
    const before = MIGRATIONS.filter((m) => m.name !== '0560_held_awaiting_bulk');
    expect(before.length).toBe(MIGRATIONS.length - 1);
    await runMigrations(db.knex, db.description, before);
    const clock = new ManualClock('2026-01-05T08:00:00Z');
    const store = createStore(db, clock);
    const lines = [1, 2, 3, 4].map((n) => payment(n, { endToEndId: `L-${n}` }));
    await store.files.recordAcceptedFile(paymentFile('first'), lines);
    const again = await store.files.recordAcceptedFile(
      paymentFile('again'),
      lines.map((l) => ({ ...l, endToEndId: `${l.endToEndId}b` })),
      0,
      holdDuplicatesSince(new Date('2026-01-01T00:00:00Z')),
    );
    expect(again.holds.length).toBe(4);
    // The decisions as the code before 0560 wrote them, which knew no awaiting_bulk.
    const held = await store.held.list({ company: 'acme' });
    const byE2e = new Map(held.map((h) => [h.endToEndId, h]));
    const decide = async (e2e: string, decision: string, state: string) => {
      const h = byE2e.get(e2e)!;
      await db.knex('held_payments').where({ id: h.id }).update({ decision, decided_by: 'ola' });
      await db.knex('payments').where({ id: h.paymentId }).update({ state });
    };
    await decide('L-1b', 'released', 'accepted');
    await decide('L-2b', 'released', 'accepted');
    await decide('L-3b', 'dropped', 'CANC');
    await store.bulks.createBulks(again.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as LocalDate,
        batchBooking: false,
        paymentIds: [byE2e.get('L-2b')!.paymentId],
      },
    ]);
    await db.migrate();
    const waiting = await db.knex('held_payments').where({ awaiting_bulk: true }).select('payment_id');
    expect(waiting.map((r: Record<string, unknown>) => r.payment_id)).toEqual([byE2e.get('L-1b')!.paymentId]);
    expect((await store.held.releasedUnplanned('acme')).map((p) => p.endToEndId)).toEqual(['L-1b']);
    await db.close();
  });
});
