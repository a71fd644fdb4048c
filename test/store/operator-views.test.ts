// The console's operator read models (src/store/operator-views.ts) on SQLite and MariaDB: unknown
// bulks, held duplicates and open cancellation requests page by keyset over rows with equal sort
// keys without losing or repeating one, only the company's and only what waits for a person, a
// bad cursor is refused, and on SQLite each list is an index search (migration 0410), never a
// table scan or a sort.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import {
  BadCursorError,
  createStore,
  openDatabase,
  type Database,
  type Paged,
  type PageQuery,
  type Store,
} from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { allPages } from '../support/keyset.js';
import { captureQueries, expectIndexRead, type CapturedQuery } from '../support/query-plan.js';
import { payment, paymentFile, holdDuplicatesSince } from './fixtures.js';
import { decideHeldPayment } from '../../jobs/controls/index.js';

const LINES = 23;

async function all<T>(load: (q: PageQuery) => Promise<Paged<T>>, limit: number): Promise<T[]> {
  return (await allPages(load, limit)).rows;
}

function contract(name: string, open: () => Promise<{ url: string; cleanup(): Promise<void> }>): void {
  describe(`operator read models on ${name}`, () => {
    let target: { url: string; cleanup(): Promise<void> };
    let db: Database;
    let store: Store;
    const clock = new ManualClock('2026-01-05T08:00:00Z');
    let queries: CapturedQuery[] = [];
    const bulkIds: string[] = [];

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, clock);
      const since = new Date('2026-01-01T00:00:00Z');
      const lines = (tag: string) =>
        Array.from({ length: LINES }, (_, i) => payment(i + 1, { endToEndId: `${tag}-${i + 1}` }));
      const first = await store.files.recordAcceptedFile(
        paymentFile('first'),
        lines('A'),
        0,
        holdDuplicatesSince(since),
      );
      // The same lines again from another file: every one is held as a likely duplicate, all at one instant.
      await store.files.recordAcceptedFile(paymentFile('again'), lines('B'), 0, holdDuplicatesSince(since));
      await store.files.recordAcceptedFile(
        paymentFile('other', { company: 'other' }),
        lines('O'),
        0,
        holdDuplicatesSince(since),
      );
      await store.files.recordAcceptedFile(
        paymentFile('other-again', { company: 'other' }),
        lines('P'),
        0,
        holdDuplicatesSince(since),
      );
      // One bulk per line of the first file: a third unknown, a third attention, the rest pending.
      const payments = await store.payments.listByFile(first.id);
      const bulks = await store.bulks.createBulks(
        first.id,
        payments.map((p, i) => ({
          position: i,
          debtorIban: p.debtorIban,
          executionDate: p.requestedExecutionDate,
          batchBooking: false,
          paymentIds: [p.id],
        })),
      );
      for (const [i, bulk] of bulks.entries()) {
        if (i % 3 === 2) continue;
        await store.bulks.markSending(bulk.id);
        await store.bulks.markUnknown(bulk.id, { title: 'timeout' });
        if (i % 3 === 1) await store.bulks.setState(bulk.id, 'attention', 'not found at the bank', 'lookup');
        bulkIds.push(bulk.id);
      }
      // Cancellation requests at one instant: every other one closed already.
      for (const [i, p] of payments.entries()) {
        const request = await store.cancellations.create({
          company: 'acme',
          ref: p.endToEndId,
          paymentIds: [p.id],
          reason: 'wrong creditor',
          requestedBy: 'kari',
          channel: 'console',
        });
        if (i % 2 === 1) expect(await store.cancellations.decline(request.id, 'ola', 'not needed')).toBe(true);
      }
      queries = captureQueries(db);
    });

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('pages the unknown and attention bulks of the company, unknown first, each once', async () => {
      const rows = await all((q) => store.operatorViews.unknownBulks('acme', q), 4);
      expect(rows.map((b) => b.id).sort()).toEqual([...bulkIds].sort());
      expect(rows.map((b) => b.state)).toEqual([...rows.map((b) => b.state)].sort());
      expect(new Set(rows.map((b) => b.state))).toEqual(new Set(['unknown', 'attention']));
      expect((await store.operatorViews.unknownBulks('other')).rows).toEqual([]);
      expect(await store.operatorViews.bulk('other', bulkIds[0]!)).toBeUndefined();
      expect((await store.operatorViews.bulk('acme', bulkIds[0]!))?.id).toBe(bulkIds[0]);
    });

    it('pages the held lines waiting for a person, held at the same instant, each once', async () => {
      const rows = await all((q) => store.operatorViews.heldPayments('acme', q), 5);
      expect(rows.map((h) => h.endToEndId).sort()).toEqual(
        Array.from({ length: LINES }, (_, i) => `B-${i + 1}`).sort(),
      );
      expect(rows.every((h) => h.company === 'acme' && h.fileName === 'again.csv')).toBe(true);
      // A decided line leaves the list.
      await decideHeldPayment(store, rows[0]!.id, { decision: 'released', by: 'ola', reason: 'not a duplicate' });
      const after = await all((q) => store.operatorViews.heldPayments('acme', q), 50);
      expect(after).toHaveLength(LINES - 1);
      expect(after.map((h) => h.id)).not.toContain(rows[0]!.id);
    });

    it('pages the open cancellation requests only', async () => {
      const rows = await all((q) => store.operatorViews.openCancellations('acme', q), 3);
      expect(rows).toHaveLength(Math.ceil(LINES / 2));
      expect(new Set(rows.map((c) => c.id)).size).toBe(rows.length);
      expect(rows.every((c) => c.outcome === undefined && c.channel === 'console')).toBe(true);
      expect((await store.operatorViews.openCancellations('other')).rows).toEqual([]);
      const declined = await store.cancellations.get(
        (await db.knex('cancellations').where({ outcome: 'declined' }).first())!.id as string,
      );
      expect(declined).toMatchObject({ outcome: 'declined', outcomeDetail: 'declined by ola: not needed' });
      // A declined request is closed: it cannot be declined twice.
      expect(await store.cancellations.decline(declined!.id, 'ola', 'again')).toBe(false);
    });

    it('refuses a cursor that does not decode', async () => {
      await expect(store.operatorViews.unknownBulks('acme', { after: 'bm90LWpzb24' })).rejects.toBeInstanceOf(
        BadCursorError,
      );
      await expect(store.operatorViews.heldPayments('acme', { after: '!!' })).rejects.toBeInstanceOf(BadCursorError);
    });

    it.runIf(name === 'SQLite')('answers each list with an index search, never a scan or a sort', async () => {
      const cases: [string, () => Promise<unknown>, string][] = [
        ['bulks', () => store.operatorViews.unknownBulks('acme', { limit: 2 }), 'bulks_console_state_ix'],
        ['held', () => store.operatorViews.heldPayments('acme', { limit: 2 }), 'held_payments_console_ix'],
        [
          'cancellations',
          () => store.operatorViews.openCancellations('acme', { limit: 2 }),
          'cancellations_console_ix',
        ],
      ];
      for (const [label, run, index] of cases) {
        for (const paged of [false, true]) {
          queries.length = 0;
          const first = (await run()) as Paged<unknown>;
          if (paged) {
            queries.length = 0;
            const load = label === 'bulks' ? 'unknownBulks' : label === 'held' ? 'heldPayments' : 'openCancellations';
            await store.operatorViews[load]('acme', { limit: 2, after: first.next! });
          }
          await expectIndexRead(db, queries[0]!, index, `${label}${paged ? ' (next page)' : ''}`);
        }
      }
    });
  });
}

contract('SQLite', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'settle-operator-'));
  return {
    url: `sqlite:${path.join(dir, 'test.sqlite')}`,
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
});

if (await mariaDbForTests()) {
  contract('MariaDB', async () => {
    const db = await createThrowawayDatabase();
    return { url: db.url, cleanup: () => db.drop() };
  });
}
