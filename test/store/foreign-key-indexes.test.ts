// Every foreign key's columns lead an index. SQLite checks a foreign key from the parent's side
// too — deleting a payment asks every table that names payments whether a row still points at it —
// and without an index on the child's column that question reads the whole child table, once for
// each row deleted: the retention purge of a bureau's old files read every held payment and every
// cancellation request ever kept, per payment and per bulk. MariaDB (InnoDB) makes an index for each
// foreign key itself, so the check is SQLite's; the schema is the same on both (migration 0600).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/index.js';
import { makeTempDir } from '../support/tmp.js';

interface ForeignKey {
  id: number;
  seq: number;
  table: string;
  from: string;
}

describe('foreign keys on SQLite', () => {
  let db: Database;
  let cleanup: () => Promise<void>;
  const pragma = async <T>(sql: string): Promise<T[]> => (await db.knex.raw(sql)) as T[];

  beforeAll(async () => {
    const tmp = await makeTempDir();
    cleanup = tmp.cleanup;
    db = await openDatabase({ url: `sqlite:${join(tmp.dir, 'settle.sqlite')}` });
    await db.migrate();
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  it('each foreign key is the leading column(s) of an index of its table', async () => {
    const tables = await pragma<{ name: string }>(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
    );
    const unindexed: string[] = [];
    let checked = 0;
    for (const { name: table } of tables) {
      const keys = await pragma<ForeignKey>(`pragma foreign_key_list(${JSON.stringify(table)})`);
      // A partial index's condition: what follows `where` in the SQL that made it.
      const conditions = new Map(
        (
          await db.knex.raw<{ name: string; sql: string }[]>(
            "select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql like '% where %'",
            [table],
          )
        ).map((index) => [index.name, index.sql.replace(/^.* where /is, '')]),
      );
      const indexes = await Promise.all(
        (await pragma<{ name: string }>(`pragma index_list(${JSON.stringify(table)})`)).map(async (index) => ({
          columns: (await pragma<{ seqno: number; name: string }>(`pragma index_info(${JSON.stringify(index.name)})`))
            .sort((a, b) => Number(a.seqno) - Number(b.seqno))
            .map((c) => c.name),
          where: conditions.get(index.name),
        })),
      );
      // An INTEGER PRIMARY KEY is the table's own key, not an index the pragma lists.
      const rowKey = (
        await pragma<{ name: string; pk: number; type: string }>(`pragma table_info(${JSON.stringify(table)})`)
      )
        .filter((c) => Number(c.pk) > 0)
        .sort((a, b) => Number(a.pk) - Number(b.pk))
        .map((c) => c.name);
      for (const id of new Set(keys.map((k) => k.id))) {
        const columns = keys
          .filter((k) => k.id === id)
          .sort((a, b) => Number(a.seq) - Number(b.seq))
          .map((k) => k.from);
        const leads = (cols: string[]) => columns.every((c, i) => cols[i] === c);
        // A partial index serves the key's check only when it holds every row that names a parent:
        // its condition is that the key is not null, which the check's `column = ?` implies.
        const serves = (index: { columns: string[]; where: string | undefined }) =>
          leads(index.columns) && (index.where === undefined || index.where === `${columns[0]} is not null`);
        checked++;
        if (!indexes.some(serves) && !leads(rowKey))
          unindexed.push(`${table} (${columns.join(', ')}) → ${keys.find((k) => k.id === id)!.table}`);
      }
    }
    expect(checked, 'the schema has foreign keys to check').toBeGreaterThan(10);
    expect(unindexed, 'foreign keys without an index: add one in a migration').toEqual([]);
  });

  it("the index by bulk holds only the lines in a bulk (migration 0769), and a bulk's lines are read through it", async () => {
    const [index] = await pragma<{ sql: string }>("select sql from sqlite_master where name = 'payments_bulk_ix'");
    expect(index?.sql).toMatch(/ where bulk_id is not null$/);
    for (const sql of ['select * from payments where bulk_id = ?', 'select * from payments where bulk_id in (?, ?)']) {
      const plan = await db.knex.raw<{ detail: string }[]>(
        `explain query plan ${sql}`,
        sql.includes('in') ? ['x', 'y'] : ['x'],
      );
      expect(plan.map((p) => p.detail).join('; '), sql).toMatch(/USING INDEX payments_bulk_ix/);
    }
  });

  it('deleting a payment or a bulk finds the rows that point at it by index, not by reading the table', async () => {
    for (const sql of ['delete from payments where id = ?', 'delete from bulks where id = ?']) {
      const plan = await db.knex.raw<{ detail: string }[]>(`explain query plan ${sql}`, ['x']);
      const scans = plan.map((p) => p.detail).filter((d) => /^SCAN /.test(d));
      expect(scans, sql).toEqual([]);
    }
  });
});
