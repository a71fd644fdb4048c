// knex's mysql2 client, whose pool hands out only connections the server still serves.
// MariaDB answers some errors and then closes the connection: a packet over max_allowed_packet
// (ER_NET_PACKET_TOO_LARGE) or a KILL of the connection. The query gets the error, but the
// socket's close reaches the driver only later, after knex has released the connection and the
// next query has taken it again: that query then failed with ECONNRESET or EPIPE on a connection
// the server had closed. Such an error now marks its connection as knex's own driver errors do
// (`__knex__disposed`, set by the dialect's 'error' listener), and the pool's check on acquiring
// (`validateConnection`) refuses it, so the next query gets a fresh connection. Also refused: a
// connection whose server has ended the socket before the driver noticed (the driver marks it only
// at the socket's close, a moment after the end). Nothing is run again: the failed statement's
// error goes to its caller as before, and only statements not yet sent get the fresh connection.
import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/**
 * Server errors after which MariaDB closes the connection (its numbers: mysql2 has no code names
 * for MariaDB's own, e.g. 1927).
 */
const CLOSES_CONNECTION = new Set([
  1053, // ER_SERVER_SHUTDOWN
  1152, // ER_ABORTING_CONNECTION
  1153, // ER_NET_PACKET_TOO_LARGE
  1156, // ER_NET_PACKETS_OUT_OF_ORDER
  1157, // ER_NET_UNCOMPRESS_ERROR
  1158, // ER_NET_READ_ERROR
  1159, // ER_NET_READ_INTERRUPTED
  1160, // ER_NET_ERROR_ON_WRITE
  1161, // ER_NET_WRITE_INTERRUPTED
  1184, // ER_NEW_ABORTING_CONNECTION
  1927, // ER_CONNECTION_KILLED (MariaDB)
]);

/** What the check needs of mysql2's connection. */
interface PooledConnection {
  __knex__disposed?: unknown;
  stream?: { readableEnded?: boolean; writable?: boolean };
}

type ClientClass = new (config: Knex.Config) => Omit<Knex.Client, 'validateConnection'> & {
  _query(connection: unknown, obj: unknown): Promise<unknown>;
  _stream(connection: unknown, obj: unknown, stream: unknown, options: unknown): Promise<unknown>;
  validateConnection(connection: unknown): boolean;
};

const Mysql2Client = createRequire(import.meta.url)('knex/lib/dialects/mysql2/index.js') as ClientClass;

/** True when the server closes the connection after this error (see CLOSES_CONNECTION). */
export function closesConnection(error: unknown): boolean {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' && CLOSES_CONNECTION.has(errno);
}

export class HealthyMysqlClient extends Mysql2Client {
  override async _query(connection: unknown, obj: unknown): Promise<unknown> {
    // A transaction whose statement closed the connection is rolled back by the server as it
    // closes it. knex still sends ROLLBACK, which then failed with ECONNRESET, and knex rejected
    // the transaction with that error in place of the one that explains it (the packet too big).
    if (isRollback(obj) && !this.serves(connection)) return obj;
    try {
      return await super._query(connection, obj);
    } catch (error) {
      markClosed(connection, error);
      throw error;
    }
  }

  override async _stream(connection: unknown, obj: unknown, stream: unknown, options: unknown): Promise<unknown> {
    try {
      return await super._stream(connection, obj, stream, options);
    } catch (error) {
      markClosed(connection, error);
      throw error;
    }
  }

  override validateConnection(connection: unknown): boolean {
    const stream = (connection as PooledConnection).stream;
    return super.validateConnection(connection) && stream?.readableEnded !== true && stream?.writable !== false;
  }

  private serves(connection: unknown): boolean {
    return (connection as PooledConnection).__knex__disposed === undefined && this.validateConnection(connection);
  }
}

function isRollback(obj: unknown): boolean {
  const sql = typeof obj === 'string' ? obj : (obj as { sql?: unknown } | null)?.sql;
  return typeof sql === 'string' && /^ROLLBACK\b/i.test(sql);
}

/**
 * Marks the connection as knex marks one its driver reported broken. With an error of its own:
 * knex logs the mark when it drops the connection, and the query's error carries the statement
 * with its values (a refused packet's is megabytes of payment data).
 */
function markClosed(connection: unknown, error: unknown): void {
  const pooled = connection as PooledConnection;
  if (!closesConnection(error) || pooled.__knex__disposed !== undefined) return;
  const { errno, code } = error as { errno: number; code?: unknown };
  pooled.__knex__disposed = new Error(
    `the server closed the connection after error ${errno}${typeof code === 'string' ? ` (${code})` : ''}`,
  );
}
