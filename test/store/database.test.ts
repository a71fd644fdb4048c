// Opening databases: URL parsing, the SQLite file defaults and keeping passwords out of errors.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSettleError, SettleError } from '../../src/domain/errors.js';
import { SQLITE_PAGE_SIZE } from '../../src/store/database.js';
import { describeTarget, openDatabase, parseDatabaseUrl, redactDatabaseUrl } from '../../src/store/index.js';

async function errorOf(promise: Promise<unknown>): Promise<SettleError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SettleError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('database URLs', () => {
  it('defaults to settle.sqlite in the data dir', () => {
    expect(parseDatabaseUrl(undefined, '/var/lib/settle')).toEqual({
      dialect: 'sqlite',
      filename: '/var/lib/settle/settle.sqlite',
    });
    expect(parseDatabaseUrl('', '/d')).toEqual({ dialect: 'sqlite', filename: '/d/settle.sqlite' });
  });

  it('accepts sqlite:, file: and bare paths, relative ones under the data dir', () => {
    expect(parseDatabaseUrl('sqlite:/tmp/a.db', '/d')).toEqual({ dialect: 'sqlite', filename: '/tmp/a.db' });
    expect(parseDatabaseUrl('sqlite://rel/a.db', '/d')).toEqual({ dialect: 'sqlite', filename: '/d/rel/a.db' });
    expect(parseDatabaseUrl('./x.sqlite', '/d')).toEqual({ dialect: 'sqlite', filename: '/d/x.sqlite' });
    expect(parseDatabaseUrl('/abs/x.sqlite', '/d')).toEqual({ dialect: 'sqlite', filename: '/abs/x.sqlite' });
  });

  it('parses mysql:// and mariadb:// URLs with encoded credentials', () => {
    expect(parseDatabaseUrl('mysql://settle:p%40ss%2Fword@db.example:3307/settle_prod')).toEqual({
      dialect: 'mysql',
      host: 'db.example',
      port: 3307,
      user: 'settle',
      password: 'p@ss/word',
      database: 'settle_prod',
    });
    expect(parseDatabaseUrl('mariadb://root@127.0.0.1/settle')).toMatchObject({
      dialect: 'mysql',
      port: 3306,
      password: '',
    });
  });

  it("takes the server's Unix socket from ?socket= (a MariaDB on the same host)", () => {
    const target = parseDatabaseUrl('mysql://settle@localhost/settle?socket=%2Frun%2Fmysqld%2Fmysqld.sock');
    expect(target).toMatchObject({ dialect: 'mysql', socketPath: '/run/mysqld/mysqld.sock', database: 'settle' });
    expect(describeTarget(target)).toBe('mysql settle@/run/mysqld/mysqld.sock/settle');
    expect(parseDatabaseUrl('mysql://settle@localhost/settle')).not.toHaveProperty('socketPath');
  });

  it('rejects unsupported schemes, in-memory SQLite and URLs without a database, without echoing the password', () => {
    for (const url of [
      'postgres://u:topsecret1@h/db',
      'sqlite::memory:',
      'mysql://u:topsecret1@h/',
      'mysql://u:topsecret1@h:notaport/db',
    ]) {
      let error: unknown;
      try {
        parseDatabaseUrl(url);
      } catch (e) {
        error = e;
      }
      expect(isSettleError(error, 'ERR_DB_URL_INVALID')).toBe(true);
      expect((error as Error).message).not.toContain('topsecret1');
      expect((error as SettleError).exitCode).toBe(2);
    }
  });

  it('masks the password when a URL is shown', () => {
    expect(redactDatabaseUrl('mysql://settle:hunter22@db:3306/x')).toBe('mysql://settle:***@db:3306/x');
    expect(redactDatabaseUrl('mysql://settle@db/x')).toBe('mysql://settle@db/x');
  });
});

describe('openDatabase', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'settle-open-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('creates the data dir and a WAL-mode SQLite file with foreign keys on', async () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const db = await openDatabase({ dataDir });
    try {
      expect(db.dialect).toBe('sqlite');
      expect(db.description).toBe(`sqlite ${path.join(dataDir, 'settle.sqlite')}`);
      const [mode] = await db.knex.raw<{ journal_mode: string }[]>('PRAGMA journal_mode');
      const [fk] = await db.knex.raw<{ foreign_keys: bigint }[]>('PRAGMA foreign_keys');
      const [page] = await db.knex.raw<{ page_size: bigint }[]>('PRAGMA page_size');
      expect(mode?.journal_mode).toBe('wal');
      expect(fk?.foreign_keys).toBe(1n);
      expect(page?.page_size).toBe(16384n);
      await db.migrate();
      await expect(db.knex('payments').insert({ id: 'x', file_id: 'no-such-file' })).rejects.toThrow(/constraint/i);
    } finally {
      await db.close();
    }
    await fs.access(path.join(dataDir, 'settle.sqlite'));
  });

  it('keeps the page size of a file made before: SQLite changes it only by VACUUM outside WAL mode', async () => {
    const file = path.join(dir, 'older.sqlite');
    const older = new Sqlite(file);
    older.pragma('page_size = 4096');
    older.pragma('journal_mode = WAL');
    older.exec('create table kept (n integer)');
    older.exec('insert into kept values (1)');
    older.close();
    expect(SQLITE_PAGE_SIZE).not.toBe(4096);
    const db = await openDatabase({ url: `sqlite:${file}` });
    try {
      const [page] = await db.knex.raw<{ page_size: bigint }[]>('PRAGMA page_size');
      expect(page?.page_size).toBe(4096n);
      await db.migrate();
      expect(await db.knex('kept').select('n')).toEqual([{ n: 1n }]);
      const [check] = await db.knex.raw<{ integrity_check: string }[]>('PRAGMA integrity_check');
      expect(check?.integrity_check).toBe('ok');
    } finally {
      await db.close();
    }
  });

  it('reports an unreachable MySQL server with ERR_DB_CONNECT and without the password', async () => {
    const error = await errorOf(openDatabase({ url: 'mysql://settle:Sup3rSecretPw@127.0.0.1:1/settle' }));
    expect(error.code).toBe('ERR_DB_CONNECT');
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain('mysql settle@127.0.0.1:1/settle');
    expect(JSON.stringify({ m: error.message, d: error.details, s: error.stack })).not.toContain('Sup3rSecretPw');
  });
});
