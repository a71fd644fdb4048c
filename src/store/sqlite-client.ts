// knex's better-sqlite3 client with one change: transactions start with BEGIN IMMEDIATE.
// A deferred BEGIN takes the write lock only at the first write; a transaction that read first
// holds a snapshot, and when another process committed meanwhile SQLite cannot let it wait for
// the lock (the snapshot would be stale) and fails at once with "database is locked", whatever
// the busy timeout. BEGIN IMMEDIATE takes the write lock up front, so a writer that finds it
// taken waits (busy_timeout) like any single statement does, and then reads fresh data.
// And a second: prepared statements are kept per connection (statement-cache.ts). knex prepares
// every query anew, and a bulk's moves repeat the same few statements, some with a thousand
// placeholders, for every bulk. And a third: the query option `rowsAsArray` (mysql2's own) reads
// rows as arrays, for the payment path's reads of a thousand lines at a time.
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { cachingConnection, type PreparingConnection } from './statement-cache.js';

interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: { rowsAsArray?: boolean };
  response?: unknown;
}

/** What `rowsAsArray` needs of a better-sqlite3 statement. */
interface RawStatement {
  raw(toggle: boolean): unknown;
  all(bindings: unknown[]): unknown[];
}

type ClientClass = new (config: Knex.Config) => Knex.Client & {
  _query(connection: unknown, obj: QueryObject): Promise<unknown>;
  _formatBindings(bindings: unknown[] | undefined): unknown[];
};

const BetterSqlite3Client = createRequire(import.meta.url)('knex/lib/dialects/better-sqlite3/index.js') as ClientClass;

export class ImmediateSqliteClient extends BetterSqlite3Client {
  override _query(connection: unknown, obj: QueryObject): Promise<unknown> {
    if (obj.sql === 'BEGIN;') obj.sql = 'BEGIN IMMEDIATE;';
    const cached = cachingConnection(connection as PreparingConnection);
    if (obj.options?.rowsAsArray !== true || obj.sql === undefined) return super._query(cached, obj);
    // A read of many rows as arrays of its columns, in their order (mysql2's `rowsAsArray`, the
    // same query option on both dialects): no object with named properties is made for each row.
    const statement = cached.prepare(obj.sql) as RawStatement;
    statement.raw(true);
    try {
      obj.response = statement.all(this._formatBindings(obj.bindings));
    } finally {
      statement.raw(false);
    }
    return Promise.resolve(obj);
  }
}
