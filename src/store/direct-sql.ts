// Statements of the payment path sent to the driver without the query builder. knex builds each
// statement's SQL anew, runs it through its runner (promises, events, the connection's checks)
// and formats every binding, about 25 µs a statement beside the 8–17 µs SQLite itself takes for
// a bulk's small statements (decision record 0015); the transition function and the counters
// send the same few statements for every bulk. Here their SQL is written once, in text both
// engines read (no quoted identifiers, `?` placeholders), and sent on the transaction's own
// connection: on SQLite through the statements kept prepared per connection (statement-cache.ts),
// on MariaDB as knex sends it (mysql2's `query`). Every statement is still announced as knex's
// are (the `query` event on the transaction), so what watches the store's statements — the tests'
// plans and counts — sees these too.
import type { Knex } from 'knex';
import { cachingConnection, type PreparingConnection } from './statement-cache.js';
import { isMysqlKnex, type Row } from './rows.js';

/** What better-sqlite3's statements offer. */
interface SqliteStatement {
  reader: boolean;
  all(...bindings: unknown[]): Row[];
  run(...bindings: unknown[]): { changes: number };
}

/** What mysql2's connection offers. */
interface MysqlConnection {
  query(sql: string, bindings: readonly unknown[], done: (error: Error | null, result: unknown) => void): void;
}

/** The part of knex's transaction client used here. */
interface TransactionClient {
  acquireConnection(): Promise<unknown>;
  emit(event: 'query', query: { sql: string; bindings: readonly unknown[]; method: 'raw' }): boolean;
}

/** The rows a read gives, or the rows a write changed, on the transaction's connection. */
async function send(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[] | number> {
  const client = trx.client as unknown as TransactionClient;
  // A transaction's client answers with the connection it holds for the whole transaction.
  const connection = await client.acquireConnection();
  client.emit('query', { sql, bindings, method: 'raw' });
  if (isMysqlKnex(trx)) {
    const result = await new Promise<unknown>((resolve, reject) =>
      (connection as MysqlConnection).query(sql, bindings, (error, answer) =>
        error ? reject(error) : resolve(answer),
      ),
    );
    return Array.isArray(result) ? (result as Row[]) : Number((result as { affectedRows: number }).affectedRows);
  }
  const statement = cachingConnection(connection as PreparingConnection).prepare(sql) as SqliteStatement;
  const bound = bindings.map((b) => (typeof b === 'boolean' ? Number(b) : b));
  return statement.reader ? statement.all(...bound) : statement.run(...bound).changes;
}

/** The rows of a SELECT (objects by column name, as knex gives them). */
export async function readRows(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  const rows = await send(trx, sql, bindings);
  if (typeof rows === 'number') throw new Error(`not a read: ${sql}`);
  return rows;
}

/** How many rows an INSERT, UPDATE or DELETE changed (on MariaDB: found and changed, as knex counts). */
export async function write(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<number> {
  const changed = await send(trx, sql, bindings);
  if (typeof changed !== 'number') throw new Error(`not a write: ${sql}`);
  return changed;
}

/** `?, ?, …` for `n` values (an `in (…)` list). */
export function placeholders(n: number): string {
  return n === 1 ? '?' : '?, '.repeat(n - 1) + '?';
}

/** ` for update` on MariaDB (row locks), nothing on SQLite (one writer holds the database). */
export function lockingRead(trx: Knex.Transaction): string {
  return isMysqlKnex(trx) ? ' for update' : '';
}
