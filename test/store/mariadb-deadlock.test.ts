// A transaction MariaDB picks as a deadlock victim is run again, not failed: two transactions
// lock two rows in opposite order, the server kills one, and both still commit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';

const available = await mariaDbForTests();

describe.skipIf(!available)('MariaDB deadlocks', () => {
  let target: ThrowawayDatabase;
  let db: Database;
  beforeAll(async () => {
    target = await createThrowawayDatabase();
    db = await openDatabase({ url: target.url, poolMax: 4 });
    await db.knex.schema.createTable('counters', (t) => {
      t.string('id', 8).primary();
      t.integer('n').notNullable();
    });
    await db.knex('counters').insert([
      { id: 'a', n: 0 },
      { id: 'b', n: 0 },
    ]);
  });
  afterAll(async () => {
    await db?.close();
    await target?.drop();
  });

  it('runs the deadlock victim again so both transactions commit', async () => {
    let attempts = 0;
    let bothLocked!: () => void;
    const firstLocks = new Promise<void>((resolve) => (bothLocked = resolve));
    let locked = 0;
    // Each transaction locks its first row, waits until the other has too (first attempt
    // only), then asks for the other's row: a certain deadlock.
    const crosswise = (first: string, second: string) =>
      db.transaction(async (trx) => {
        attempts++;
        await trx('counters').where({ id: first }).increment('n', 1);
        if (++locked === 2) bothLocked();
        if (locked <= 2) await firstLocks;
        await trx('counters').where({ id: second }).increment('n', 1);
      });
    await Promise.all([crosswise('a', 'b'), crosswise('b', 'a')]);
    expect(attempts).toBe(3);
    const rows = await db.knex('counters').select('id', 'n').orderBy('id');
    expect(rows.map((r: { id: string; n: number }) => [r.id, Number(r.n)])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
  });
});
