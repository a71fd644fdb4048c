// Paging by keyset, for every list the console pages in the database: the page's last row's
// sort key, made an opaque cursor, is where the next page starts (`WHERE key < cursor ORDER BY
// key DESC LIMIT n`), so a page costs one index range scan (migration 0240) whatever the table's
// size, and rows with equal sort keys are told apart by their id so none is lost or shown twice
// at a page boundary.
import type { Knex } from 'knex';
import type { Row } from './rows.js';

/** One page of a list and the cursor of the next one (absent on the last page). */
export interface Paged<T> {
  rows: T[];
  next?: string;
}

export interface PageQuery {
  /** The opaque cursor from the previous page's `next`. */
  after?: string;
  /** Rows per page (1–200; default 50). */
  limit?: number;
}

/** A cursor that does not decode: a link from an older version or edited by hand. */
export class BadCursorError extends Error {
  constructor() {
    super('this page link is out of date or was changed; start again from the first page');
    this.name = 'BadCursorError';
  }
}

/** The sort key of a row as an opaque, URL-safe text. */
export function encodeCursor(values: readonly string[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

export function decodeCursor(text: string, arity: number): string[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new BadCursorError();
  }
  if (!Array.isArray(values) || values.length !== arity || !values.every((v) => typeof v === 'string'))
    throw new BadCursorError();
  return values;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

export function pageSize(query: PageQuery): number {
  const n = query.limit ?? DEFAULT_LIMIT;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_LIMIT) : DEFAULT_LIMIT;
}

/**
 * Restricts a query ordered by (`first` DESC, `second` DESC) to the rows after the cursor. Said as
 * `first <= a AND (first < a OR second < b)` rather than a row-value comparison: both engines
 * turn the first half into an index range, which MariaDB does not do for `(x, y) < (a, b)`.
 */
export function afterDesc(q: Knex.QueryBuilder, columns: [string, string], cursor: string[]): void {
  afterKey(q, columns, cursor, 'desc');
}

/**
 * Restricts a query ordered by `columns` (all ascending or all descending) to the rows after the
 * cursor, nested as `c1 >= a AND (c1 > a OR (c2 >= b AND (c2 > b OR …)))` for the reason above.
 */
export function afterKey(
  q: Knex.QueryBuilder,
  columns: readonly string[],
  cursor: readonly string[],
  order: 'asc' | 'desc',
): void {
  const [column, ...rest] = columns;
  const [value, ...after] = cursor;
  if (column === undefined || value === undefined) return;
  const strict = order === 'asc' ? '>' : '<';
  if (rest.length === 0) {
    void q.where(column, strict, value);
    return;
  }
  void q
    .where(column, `${strict}=`, value)
    .andWhere((w) => void w.where(column, strict, value).orWhere((o) => afterKey(o, rest, after, order)));
}

/** Restricts a query ordered by (`first` ASC, `second` ASC) to the rows after the cursor; see afterDesc. */
export function afterAsc(q: Knex.QueryBuilder, [first, second]: [string, string], cursor: string[]): void {
  const [a, b] = cursor as [string, string];
  void q.where(first, '>=', a).andWhere((w) => void w.where(first, '>', a).orWhere(second, '>', b));
}

/** Runs a keyset query for one more row than the page holds, to know whether a next page exists. */
export async function keysetPage<T>(
  q: Knex.QueryBuilder,
  query: PageQuery,
  map: (row: Row) => T,
  key: (row: Row) => string[],
): Promise<Paged<T>> {
  const limit = pageSize(query);
  const rows = (await q.limit(limit + 1)) as Row[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page.map(map), ...(rows.length > limit && last ? { next: encodeCursor(key(last)) } : {}) };
}
