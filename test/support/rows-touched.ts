// How the store's tests hold a read or a write to the rows it needs: on MariaDB the rows its
// storage engine read and wrote during a call (the session's Handler_* counters; the database
// must have one connection, poolMax: 1, so the counters are the call's own); on SQLite, which
// keeps no such counter, the plan the engine chooses for the call's statements.
import type { Knex } from 'knex';
import { expect } from 'vitest';
import type { Database } from '../../src/store/index.js';

export async function rowsTouched(
  db: Database,
  engine: 'SQLite' | 'MariaDB',
  fn: () => Promise<unknown>,
): Promise<number | undefined> {
  if (engine !== 'MariaDB') {
    await fn();
    return undefined;
  }
  const count = async () => {
    const [rows] = (await db.knex.raw(
      `show session status where variable_name like 'Handler_read%' or variable_name in ('Handler_update', 'Handler_write', 'Handler_delete')`,
    )) as [{ Variable_name: string; Value: string }[]];
    return rows.reduce((sum, r) => sum + Number(r.Value), 0);
  };
  const before = await count();
  await fn();
  return (await count()) - before;
}

/** SQLite's plan (EXPLAIN QUERY PLAN) of each statement `fn` runs whose SQL matches `sql`; at least one must. */
export async function sqlitePlansOf(db: Database, sql: RegExp, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: { sql: string; bindings: readonly Knex.RawBinding[] }[] = [];
  const listen = (q: { sql: string; bindings?: Knex.RawBinding[] }) => {
    if (sql.test(q.sql)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  db.knex.on('query', listen);
  try {
    await fn();
  } finally {
    db.knex.off('query', listen);
  }
  expect(seen.length, `a statement matching ${String(sql)}`).toBeGreaterThan(0);
  const plans: string[] = [];
  for (const s of seen) {
    const rows = await db.knex.raw<{ detail: string }[]>(`explain query plan ${s.sql}`, s.bindings);
    plans.push(rows.map((r) => r.detail).join('; '));
  }
  return plans;
}
