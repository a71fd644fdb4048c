// How the store's tests show that a list is an index read, not a scan or a sort: they capture
// the SQL a read model sends (captureQueries) and ask the engine for its plan (expectIndexRead).
// SQLite: EXPLAIN QUERY PLAN must name the index and show neither a SCAN nor a TEMP B-TREE.
// MariaDB: every table of EXPLAIN is read through an index (`ref` or `range`, or `eq_ref` for a
// join's lookup) with no filesort; MariaDB weighs its statistics, so callers give it tables
// where the index is selective, and may accept another index that serves the same order.
import { expect } from 'vitest';
import type { Database, Row } from '../../src/store/index.js';

export interface CapturedQuery {
  sql: string;
  bindings: readonly unknown[];
}

/** Records every query the database runs from now on; clear the array between calls. */
export function captureQueries(db: Database): CapturedQuery[] {
  const queries: CapturedQuery[] = [];
  db.knex.on('query', (q: { sql: string; bindings?: readonly unknown[] }) =>
    queries.push({ sql: q.sql, bindings: q.bindings ?? [] }),
  );
  return queries;
}

export function isSqlite(db: Database): boolean {
  return (db.knex.client as { dialect?: string }).dialect !== 'mysql';
}

/**
 * Asserts the query is answered by index reads. On SQLite the plan must use `index`; on
 * MariaDB (whose plan is less predictable on small tables) `mariaDbIndexes`, when given, lists
 * the indexes the first table may be read by.
 */
export async function expectIndexRead(
  db: Database,
  query: CapturedQuery,
  index: string,
  label: string,
  mariaDbIndexes?: readonly string[],
): Promise<void> {
  if (isSqlite(db)) {
    const plan: { detail: string }[] = await db.knex.raw(`explain query plan ${query.sql}`, query.bindings as never);
    const details = plan.map((p) => p.detail).join('; ');
    expect(details, label).toContain(index);
    expect(details, label).not.toMatch(/^SCAN |; SCAN |TEMP B-TREE/);
    return;
  }
  // mysql2 answers [rows, fields]; one row per table the query reads, the first one first.
  const [plan] = (await db.knex.raw(`explain ${query.sql}`, query.bindings as never)) as [Row[]];
  for (const [i, row] of plan.entries()) {
    expect(row.key, `${label}: table ${String(row.table)}`).toBeTruthy();
    expect(['ref', 'range', 'eq_ref'], `${label}: table ${String(row.table)}`).toContain(String(row.type));
    const extra = typeof row.Extra === 'string' ? row.Extra : '';
    expect(extra, label).not.toContain('filesort');
    expect(extra, label).not.toContain('temporary');
    if (i === 0 && mariaDbIndexes) expect(mariaDbIndexes, label).toContain(String(row.key));
  }
}
