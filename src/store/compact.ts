// `settle db compact`: rebuilds a SQLite file, so that it gives back the pages a purge freed and takes
// the page size a new file gets (decision 0008). SQLite changes the page size only by VACUUM, outside
// WAL mode, and leaves WAL mode only when no other connection has the file open: with another settle
// process on it, this refuses with ERR_DB_BUSY and nothing changes.
import { SettleError } from '../domain/errors.js';
import { describeDatabaseError } from './busy.js';
import { SQLITE_PAGE_SIZE, type Database } from './database.js';

export interface Compacted {
  pageSizeBefore: number;
  pageSizeAfter: number;
  bytesBefore: number;
  bytesAfter: number;
  /** Pages that held nothing before the rebuild (freed by purges and deletes). */
  freePagesBefore: number;
}

export async function compactSqlite(db: Database): Promise<Compacted> {
  if (db.dialect !== 'sqlite')
    throw new SettleError(
      'ERR_USAGE',
      'settle db compact rebuilds a SQLite file; MariaDB and MySQL manage their own pages (OPTIMIZE TABLE is theirs).',
    );
  const before = await pages(db);
  try {
    await pragma(db, 'journal_mode = DELETE');
  } catch (error) {
    throw describeDatabaseError(error);
  }
  try {
    await pragma(db, `page_size = ${SQLITE_PAGE_SIZE}`);
    await db.knex.raw('VACUUM');
  } finally {
    // Back to WAL whatever happened: the other settings of the file (docs/storage.md) assume it.
    await pragma(db, 'journal_mode = WAL');
  }
  const after = await pages(db);
  return {
    pageSizeBefore: before.size,
    pageSizeAfter: after.size,
    bytesBefore: before.size * before.count,
    bytesAfter: after.size * after.count,
    freePagesBefore: before.free,
  };
}

async function pages(db: Database): Promise<{ size: number; count: number; free: number }> {
  return {
    size: Number(await pragma(db, 'page_size')),
    count: Number(await pragma(db, 'page_count')),
    free: Number(await pragma(db, 'freelist_count')),
  };
}

/** One PRAGMA on the store's connection, its first column of the first row. */
async function pragma(db: Database, source: string): Promise<unknown> {
  // A PRAGMA that sets a value answers no rows: knex then gives the statement's run result.
  const rows: unknown = await db.knex.raw(`PRAGMA ${source}`);
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined;
  return first !== null && typeof first === 'object' ? Object.values(first)[0] : undefined;
}
