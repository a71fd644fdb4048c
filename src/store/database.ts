// The database handle of settle: knex over SQLite (better-sqlite3, the embedded default) or
// MySQL/MariaDB (mysql2). It owns the connection pool, runs the forward-only migrations and
// offers transactions; repositories take it as their only dependency.
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { SettleError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import { redactText } from '../log/redact.js';
import { describeTarget, parseDatabaseUrl, type DatabaseTarget, type Dialect } from './database-url.js';
import { describeDatabaseError } from './busy.js';
import { HealthyMysqlClient } from './mysql-client.js';
import { ImmediateSqliteClient } from './sqlite-client.js';
import { migrationStatus, runMigrations, type MigrateResult, type MigrationStatus } from './migrator.js';
import { DEADLOCK_ATTEMPTS, isDeadlock, pauseAfterDeadlock } from './deadlock.js';
import { withStateCounts } from './state-counts.js';

export interface OpenDatabaseOptions {
  /** database.url: empty for the default file, a path, sqlite:PATH or mysql://user:pass@host:port/db. */
  url?: string;
  /** Where the default SQLite file lives (and where relative SQLite paths resolve). */
  dataDir?: string;
  logger?: Logger;
  /** MySQL pool size; SQLite always uses one connection (single writer). */
  poolMax?: number;
  /** How long a SQLite writer waits for another process's lock (ms); default 5 s. */
  busyTimeoutMs?: number;
}

export interface Database {
  readonly dialect: Dialect;
  /** Where the data is, without secrets: safe to log and print. */
  readonly description: string;
  readonly knex: Knex;
  /** Applies the migrations this build knows and the database lacks; returns their names. */
  migrate(): Promise<MigrateResult>;
  /** What is applied, pending and unknown, without changing anything (for start-up checks). */
  migrationStatus(): Promise<MigrationStatus>;
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** One round trip to the database (the health check's). */
  ping(): Promise<void>;
  /** False for a database whose every change is rolled back (rollbackOnly): nothing it writes lasts. */
  readonly durable: boolean;
  close(): Promise<void>;
}

/**
 * A database whose every change is undone: one open transaction that `rollback` ends (the dry
 * run, src/main/dry-run.ts). Its transactions are savepoints inside it, on one connection.
 */
export async function rollbackOnly(
  db: Database,
  schema: MigrationStatus,
): Promise<{ db: Database; rollback: () => Promise<void> }> {
  const trx = await db.knex.transaction();
  const dry: Database = {
    dialect: db.dialect,
    description: `${db.description} (dry run)`,
    knex: trx,
    migrate: () => Promise.reject(new Error('a dry run does not migrate')),
    migrationStatus: () => Promise.resolve(schema),
    transaction: (fn) => trx.transaction(fn),
    ping: async () => void (await trx.raw('select 1')),
    durable: false,
    close: () => Promise.resolve(),
  };
  return { db: dry, rollback: async () => void (await trx.rollback().catch(() => undefined)) };
}

/** Milliseconds a SQLite writer waits for another process's lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5000;
/** The page size of a new SQLite file (decision 0008). */
export const SQLITE_PAGE_SIZE = 16384;

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(options.url, options.dataDir);
  const description = describeTarget(target);
  if (target.dialect === 'sqlite') fs.mkdirSync(path.dirname(target.filename), { recursive: true });
  const knex = createKnex(target, {
    safeIntegers: true,
    poolMax: options.poolMax,
    logger: options.logger,
    busyTimeoutMs: options.busyTimeoutMs,
  });
  try {
    await knex.raw('select 1');
  } catch (cause) {
    await knex.destroy().catch(() => undefined);
    throw connectError(description, cause);
  }
  options.logger?.debug('database opened', { database: description });
  return new KnexDatabase(target, description, knex, options.logger, options.busyTimeoutMs);
}

class KnexDatabase implements Database {
  readonly dialect: Dialect;
  readonly durable = true;
  constructor(
    private readonly target: DatabaseTarget,
    readonly description: string,
    readonly knex: Knex,
    private readonly logger: Logger | undefined,
    private readonly busyTimeoutMs: number | undefined,
  ) {
    this.dialect = target.dialect;
  }

  async migrate(): Promise<MigrateResult> {
    // knex's migrator does arithmetic on the batch number it reads back, which SQLite safe
    // integers would hand it as a bigint; so SQLite migrations run on a short-lived second
    // connection with plain numbers (same file; WAL lets both see each other's commits).
    const migrationKnex =
      this.target.dialect === 'sqlite'
        ? createKnex(this.target, { safeIntegers: false, logger: this.logger, busyTimeoutMs: this.busyTimeoutMs })
        : this.knex;
    try {
      const result = await runMigrations(migrationKnex, this.description);
      if (result.applied.length > 0)
        this.logger?.info('database migrated', { database: this.description, applied: result.applied });
      return result;
    } finally {
      if (migrationKnex !== this.knex) await migrationKnex.destroy();
    }
  }

  migrationStatus(): Promise<MigrationStatus> {
    return migrationStatus(this.knex);
  }

  async ping(): Promise<void> {
    await this.knex.raw('select 1');
  }

  /**
   * Runs `fn` in a transaction. MariaDB may pick a transaction as a deadlock victim when
   * concurrent ones lock index ranges in different orders (several bulks updating their
   * payment rows at once); it rolls the victim back whole, so running it again is safe and is
   * what the server asks for. `fn` therefore must touch nothing but the database.
   */
  async transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        // The state counters a transaction changed are written when its work is done (the last
        // locks it takes): src/store/state-counts.ts.
        return await this.knex.transaction((trx) => withStateCounts(trx, fn));
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw describeDatabaseError(error);
        this.logger?.debug('database deadlock; transaction run again', { attempt });
        await pauseAfterDeadlock(attempt);
      }
    }
  }

  async close(): Promise<void> {
    await this.knex.destroy();
  }
}

interface KnexOptions {
  safeIntegers: boolean;
  poolMax?: number | undefined;
  logger?: Logger | undefined;
  busyTimeoutMs?: number | undefined;
}

/** knex's own warnings go to our logger (redacted JSON lines), never straight to the console. */
function knexLog(logger: Logger | undefined): Knex.Config['log'] {
  const text = (message: unknown) =>
    redactText(typeof message === 'string' ? message : (JSON.stringify(message) ?? ''));
  return {
    warn: (message: unknown) => void logger?.warn(text(message), { component: 'knex' }),
    error: (message: unknown) => void logger?.error(text(message), { component: 'knex' }),
    deprecate: (message: unknown) => void logger?.debug(text(message), { component: 'knex' }),
    debug: (message: unknown) => void logger?.debug(text(message), { component: 'knex' }),
  };
}

function createKnex(target: DatabaseTarget, options: KnexOptions): Knex {
  if (target.dialect === 'sqlite') {
    return knexFactory({
      client: ImmediateSqliteClient as unknown as typeof Knex.Client,
      connection: { filename: target.filename, options: { safeIntegers: options.safeIntegers } },
      useNullAsDefault: true,
      log: knexLog(options.logger),
      // A failed statement's error names its SQL with `?` where the values were: a payment's
      // IBAN, name or a 20 MB report never reach an error message or the log that carries it.
      compileSqlOnError: false,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(source: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          try {
            // Before WAL, which fixes the size: 16 KiB pages for a new file (an existing one keeps
            // the size it was made with). A bulk's join and moves rewrite a run of 1,000 wide rows
            // and their index entries: fewer, larger pages for the WAL and its checkpoints (0008).
            conn.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
            conn.pragma('journal_mode = WAL');
            conn.pragma('foreign_keys = ON');
            conn.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? SQLITE_BUSY_TIMEOUT_MS))}`);
            // WAL + NORMAL is durable against application crashes, and far faster than FULL.
            conn.pragma('synchronous = NORMAL');
            done(null, conn);
          } catch (error) {
            done(error as Error, conn);
          }
        },
      },
    });
  }
  return knexFactory({
    // mysql2, with the pool handing out only connections the server still serves (./mysql-client.ts).
    client: HealthyMysqlClient as unknown as typeof Knex.Client,
    connection: {
      ...(target.socketPath === undefined
        ? { host: target.host, port: target.port }
        : { socketPath: target.socketPath }),
      user: target.user,
      password: target.password,
      database: target.database,
      charset: 'utf8mb4',
      timezone: 'Z',
      // BIGINT amounts come back as exact decimal strings, never as lossy numbers.
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
    },
    pool: { min: 0, max: options.poolMax ?? 10 },
    log: knexLog(options.logger),
    compileSqlOnError: false,
  });
}

function connectError(description: string, cause: unknown): SettleError {
  const reason = cause instanceof Error ? redactText(cause.message) : 'unknown error';
  const code = (cause as { code?: unknown } | null)?.code;
  // The driver's error is not chained: its fields may echo connection settings.
  return new SettleError('ERR_DB_CONNECT', `Cannot open the database (${description}): ${reason}`, {
    details: { database: description, driverCode: typeof code === 'string' ? code : undefined },
  });
}
