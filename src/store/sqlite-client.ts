// knex's better-sqlite3 client with one change: transactions start with BEGIN IMMEDIATE.
// A deferred BEGIN takes the write lock only at the first write; a transaction that read first
// holds a snapshot, and when another process committed meanwhile SQLite cannot let it wait for
// the lock (the snapshot would be stale) and fails at once with "database is locked", whatever
// the busy timeout. BEGIN IMMEDIATE takes the write lock up front, so a writer that finds it
// taken waits (busy_timeout) like any single statement does, and then reads fresh data.
// And a second: prepared statements are kept per connection (statement-cache.ts). knex prepares
// every query anew, and a bulk's moves repeat the same few statements, some with a thousand
// placeholders, for every bulk. And a third: the query option `rowsAsArray` (mysql2's own) reads
// rows as arrays, for the payment path's reads of a thousand lines at a time. And a fourth: a
// long chain of statements gives the event loop a turn every few milliseconds (see _query).
import { createRequire } from 'node:module';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Knex } from 'knex';
import { cachingConnection, type PreparingConnection } from './statement-cache.js';

interface QueryObject {
  sql?: string;
  bindings?: unknown[];
  options?: { rowsAsArray?: boolean };
  response?: unknown;
}

/** better-sqlite3's connection: whether a transaction is open on it. */
interface InTransaction {
  inTransaction: boolean;
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

/** How long a chain of statements may keep the event loop before it gives a turn. */
const TURN_AFTER_MS = 5;
/** When the client last gave the event loop a turn. */
let turnedAt = performance.now();

export class ImmediateSqliteClient extends BetterSqlite3Client {
  /**
   * better-sqlite3 answers at once, so a chain of awaited statements (a company's plan of many
   * bulks, a purge, a long export) ran as ONE stretch of microtasks: no socket, timer or request
   * got a turn until the chain ended, and `settle serve` left webhooks, the console and health
   * checks unanswered for as long as the whole chain took (three quarters of a second for the
   * plan of 100,000 payments, docs/performance.md). Now a statement that ends 5 ms or more after
   * the last turn gives the event loop one, as MariaDB's asynchronous driver does by nature. Not
   * after every statement: each turn is a pass through the loop's I/O polling, and a turn per
   * statement made the payments bench about 4 % slower. Never inside a transaction: it holds
   * SQLite's write lock, and a second connection of the same process (two instances in one test)
   * would wait for that lock in a busy loop that blocks the one thread the transaction needs to
   * finish — each would wait for the other until the busy timeout.
   */
  override async _query(connection: unknown, obj: QueryObject): Promise<unknown> {
    const answered = await this.answer(connection, obj);
    if (!(connection as InTransaction).inTransaction && performance.now() - turnedAt >= TURN_AFTER_MS) {
      await nextTurn();
      turnedAt = performance.now();
    }
    return answered;
  }

  private answer(connection: unknown, obj: QueryObject): Promise<unknown> {
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
