// What the tests of the console's keyset-paged read models share: walking every page of a list,
// and checking on SQLite that a list's query is a search of the named index, never a table scan
// or a sort (EXPLAIN QUERY PLAN).
import { expect } from 'vitest';
import type { Database, Paged, PageQuery } from '../../src/store/index.js';

/** Every row of a paged list, following `next` until the last page. */
export async function allPages<T>(
  load: (q: PageQuery) => Promise<Paged<T>>,
  limit: number,
): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = [];
  let after: string | undefined;
  let pages = 0;
  do {
    const page = await load({ limit, ...(after ? { after } : {}) });
    rows.push(...page.rows);
    after = page.next;
    pages++;
    if (pages > 1000) throw new Error('paging does not end');
  } while (after);
  return { rows, pages };
}

/** SQLite's plan of the query uses `index` and neither scans a table nor sorts. */
export async function expectIndexSearch(
  db: Database,
  query: { sql: string; bindings: readonly unknown[] },
  index: string,
  label: string,
): Promise<void> {
  const plan: { detail: string }[] = await db.knex.raw(`explain query plan ${query.sql}`, query.bindings as never);
  const details = plan.map((p) => p.detail).join('; ');
  expect(details, label).toContain(index);
  expect(details, label).not.toMatch(/^SCAN |; SCAN |TEMP B-TREE/);
}
