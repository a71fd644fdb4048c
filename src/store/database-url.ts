// Where the database is: `database.url` (or SETTLE_DATABASE_URL) parsed into knex connection
// settings. SQLite is the embedded default (a file in the data dir); `mysql://` or
// `mariadb://` selects MySQL/MariaDB through mysql2. The password is registered with the log
// redaction at parse time and never appears in a description, log line or error.
import path from 'node:path';
import { SettleError } from '../domain/errors.js';
import { registerSecret } from '../log/redact.js';

export type Dialect = 'sqlite' | 'mysql';

export interface SqliteTarget {
  dialect: 'sqlite';
  filename: string;
}

export interface MysqlTarget {
  dialect: 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /**
   * `?socket=/run/mysqld/mysqld.sock`: the server's Unix socket instead of TCP, for a MariaDB on
   * the same host — each statement then costs both processes about half the CPU of the
   * loopback's TCP path (docs/performance.md, bureau).
   */
  socketPath?: string;
}

export type DatabaseTarget = SqliteTarget | MysqlTarget;

export const DEFAULT_SQLITE_FILE = 'settle.sqlite';

/** Parses a database URL; with no URL the default is `<dataDir>/settle.sqlite`. */
export function parseDatabaseUrl(url: string | undefined, dataDir = 'data'): DatabaseTarget {
  const text = url?.trim() ?? '';
  if (text === '') return { dialect: 'sqlite', filename: path.resolve(dataDir, DEFAULT_SQLITE_FILE) };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === 'mysql' || scheme === 'mariadb') return parseMysql(text);
  if (scheme === 'sqlite' || scheme === 'file') return sqliteFile(text.replace(/^[a-z]+:(\/\/)?/i, ''), text, dataDir);
  // A bare path (absolute, relative, or a Windows drive letter that looks like a scheme).
  if (scheme === undefined || /^[a-z]:[\\/]/i.test(text)) return sqliteFile(text, text, dataDir);
  throw invalid(
    `database.url has the unsupported scheme "${scheme}:"; use a file path, sqlite:PATH or mysql://user:password@host:port/database.`,
  );
}

function sqliteFile(rest: string, original: string, dataDir: string): SqliteTarget {
  if (rest === '' || rest === ':memory:') {
    throw invalid(
      `database.url "${original}" names no file; settle keeps its SQLite database in a file (e.g. sqlite:${path.join(dataDir, DEFAULT_SQLITE_FILE)}).`,
    );
  }
  return { dialect: 'sqlite', filename: path.resolve(dataDir, rest) };
}

function parseMysql(text: string): MysqlTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The parser's own error quotes the input, password included: do not chain it.
    throw invalid('database.url is not a valid mysql:// URL (expected mysql://user:password@host:port/database).');
  }
  const password = decodeURIComponent(url.password);
  registerSecret(password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database === '' || database.includes('/')) {
    throw invalid(
      `database.url ${redactDatabaseUrl(text)} names no database (expected mysql://user:password@host:port/database).`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw invalid(`database.url ${redactDatabaseUrl(text)} names no host.`);
  const socketPath = url.searchParams.get('socket') ?? '';
  return {
    dialect: 'mysql',
    host,
    port: url.port === '' ? 3306 : Number.parseInt(url.port, 10),
    user: decodeURIComponent(url.username) || 'root',
    password,
    database,
    ...(socketPath === '' ? {} : { socketPath }),
  };
}

/** The URL with any password replaced, for messages and logs. */
export function redactDatabaseUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}

/** A human description of a target without secrets: "sqlite /var/lib/settle/settle.sqlite". */
export function describeTarget(target: DatabaseTarget): string {
  return target.dialect === 'sqlite'
    ? `sqlite ${target.filename}`
    : `mysql ${target.user}@${target.socketPath ?? `${target.host}:${target.port}`}/${target.database}`;
}

function invalid(message: string): SettleError {
  return new SettleError('ERR_DB_URL_INVALID', message);
}
