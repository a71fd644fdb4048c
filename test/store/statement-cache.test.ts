// Prepared statements kept per SQLite connection: the same SQL is prepared once and answered the
// same afterwards, a schema change under a kept statement still gives the new shape, a failed
// statement does not spoil the next call, and the cache stays bounded.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachingConnection, STATEMENTS_PER_CONNECTION } from '../../src/store/statement-cache.js';
import { openDatabase } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

describe('the per-connection statement cache', () => {
  it('prepares each SQL text once per connection and keeps at most its bound, oldest out first', () => {
    const prepared: string[] = [];
    const connection = { prepare: (sql: string) => (prepared.push(sql), { sql }) };
    const cached = cachingConnection(connection);
    expect(cachingConnection(connection)).toBe(cached);
    const first = cached.prepare('select 1');
    expect(cached.prepare('select 1')).toBe(first);
    expect(prepared).toEqual(['select 1']);
    for (let i = 0; i < STATEMENTS_PER_CONNECTION; i++) cached.prepare(`select ${i + 2}`);
    // 'select 1' was the least recently used: it went out, and comes back as a new statement.
    expect(cached.prepare('select 1')).not.toBe(first);
    expect(prepared.filter((s) => s === 'select 1')).toHaveLength(2);
    // 'select 2' was never asked again after its first use: out; the newest stays.
    const before = prepared.length;
    cached.prepare(`select ${STATEMENTS_PER_CONNECTION + 1}`);
    expect(prepared.length).toBe(before);
  });

  it('gives the same answers on a real SQLite database, across a schema change and a failed statement', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
      try {
        await db.knex.schema.createTable('t', (t) => {
          t.integer('a');
        });
        await db.knex('t').insert([{ a: 1 }, { a: 2 }]);
        // Integers come back as bigint (the store reads them safely); the shape is what matters here.
        const read = async () =>
          (await db.knex('t').select('*').orderBy('a')).map((r: Record<string, unknown>) => ({ ...r, a: Number(r.a) }));
        expect(await read()).toEqual([{ a: 1 }, { a: 2 }]);
        await db.knex.schema.alterTable('t', (t) => {
          t.string('b').nullable();
        });
        expect(await read()).toEqual([
          { a: 1, b: null },
          { a: 2, b: null },
        ]);
        await expect(db.knex.raw('insert into t (a, nope) values (?, ?)', [3, 'x'])).rejects.toThrow(/nope/);
        await db.transaction(async (trx) => {
          await trx('t').insert({ a: 3, b: 'x' });
        });
        await expect(
          db.transaction(async (trx) => {
            await trx('t').insert({ a: 4, b: 'y' });
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect((await read()).map((r) => r.a)).toEqual([1, 2, 3]);
      } finally {
        await db.close();
      }
    });
  });
});
