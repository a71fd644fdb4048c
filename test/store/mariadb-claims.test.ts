// Claims on MariaDB wait for a row lock instead of skipping it: a row another writer has
// locked for a moment (a status write, a lease renewal) is work all the same, and a claimer
// that skipped it (SELECT … FOR UPDATE SKIP LOCKED) answered "no work" and left it for the
// next night.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { pendingBulks } from './fixtures.js';

const available = await mariaDbForTests();

describe.skipIf(!available)('claims on MariaDB', () => {
  const clock = new ManualClock('2026-01-05T08:00:00Z');
  let target: ThrowawayDatabase;
  let db: Database;
  let other: Database;
  let store: Store;
  beforeAll(async () => {
    target = await createThrowawayDatabase();
    db = await openDatabase({ url: target.url });
    other = await openDatabase({ url: target.url });
    await db.migrate();
    store = createStore(db, clock);
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
    await target?.drop();
  });

  it('takes a row another transaction has locked once that one commits, instead of skipping it', async () => {
    const { fileId, ids } = await pendingBulks(store, 'claims-locked', 1);
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    let committedAt = 0;
    const writer = other.knex.transaction(async (trx) => {
      await trx('bulks').where({ id: ids[0]! }).update({ updated_at: '2026-01-05T08:00:01.000Z' });
      locked();
      await new Promise((resolve) => setTimeout(resolve, 400));
      committedAt = Date.now();
    });
    await isLocked;
    const rows = await store.claim('bulks', { where: { file_id: fileId }, limit: 5, holder: 'h', leaseMs: 60_000 });
    const claimedAt = Date.now();
    await writer;
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(claimedAt).toBeGreaterThanOrEqual(committedAt);
  });

  it('does not take a row whose lock holder claimed it meanwhile', async () => {
    const { fileId, ids } = await pendingBulks(store, 'claims-raced', 1);
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const rival = other.knex.transaction(async (trx) => {
      await trx('bulks')
        .where({ id: ids[0]! })
        .update({ lease_holder: 'rival', lease_expires_at: '2026-01-05T09:00:00.000Z' });
      locked();
      await new Promise((resolve) => setTimeout(resolve, 200));
    });
    await isLocked;
    const rows = await store.claim('bulks', { where: { file_id: fileId }, limit: 5, holder: 'h', leaseMs: 60_000 });
    await rival;
    expect(rows).toEqual([]);
    const [row] = await db.knex('bulks').where({ id: ids[0]! });
    expect((row as { lease_holder: string }).lease_holder).toBe('rival');
  });
});
