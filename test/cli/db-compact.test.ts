// `settle db compact`: a SQLite file made by an earlier settle (4 KiB pages) is rebuilt with the page
// size a new file gets, gives back the pages its deletes freed, and keeps every row; with another
// process on the file it refuses with ERR_DB_BUSY and the file is as it was.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

/** A migrated database rebuilt with 4 KiB pages, as settle made them before, with freed pages in it. */
async function olderDatabase(dir: string): Promise<{ env: NodeJS.ProcessEnv; file: string }> {
  const env = { SETTLE_DATA_DIR: join(dir, 'data') };
  const migrated = await runSettle(['db', 'migrate'], { cwd: dir, env });
  expect(migrated.code, migrated.stderr).toBe(0);
  const file = join(dir, 'data', 'settle.sqlite');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('page_size = 4096');
    db.exec('VACUUM');
    db.pragma('journal_mode = WAL');
    db.exec('create table kept (n integer, note text)');
    const insert = db.prepare('insert into kept values (?, ?)');
    db.transaction(() => {
      for (let n = 0; n < 5000; n++) insert.run(n, 'x'.repeat(200));
    })();
    db.exec('delete from kept where n >= 1000');
  } finally {
    db.close();
  }
  return { env, file };
}

function pageFacts(file: string): { size: number; free: number; mode: string; rows: number; check: string } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      size: Number(db.pragma('page_size', { simple: true })),
      free: Number(db.pragma('freelist_count', { simple: true })),
      mode: String(db.pragma('journal_mode', { simple: true })),
      rows: Number(db.prepare('select count(*) from kept').pluck().get()),
      check: String(db.pragma('integrity_check', { simple: true })),
    };
  } finally {
    db.close();
  }
}

describe('settle db compact', () => {
  it('rebuilds an older file with 16 KiB pages, gives back its free pages and keeps its rows', async () => {
    await withTempDir(async (dir) => {
      const { env, file } = await olderDatabase(dir);
      const before = pageFacts(file);
      expect(before).toMatchObject({ size: 4096, rows: 1000 });
      expect(before.free).toBeGreaterThan(100);
      const run = await runSettle(['db', 'compact'], { cwd: dir, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/pages of 4 KiB → 16 KiB \(\d+ free pages given back\)/);
      expect(pageFacts(file)).toEqual({ size: 16384, free: 0, mode: 'wal', rows: 1000, check: 'ok' });
      const migrate = await runSettle(['db', 'migrate'], { cwd: dir, env });
      expect(migrate.code, migrate.stderr).toBe(0);
      expect(migrate.stdout).toContain('already up to date');
    });
  }, 60_000);

  it('refuses with ERR_DB_BUSY while another process has the file open, and changes nothing', async () => {
    await withTempDir(async (dir) => {
      const { env, file } = await olderDatabase(dir);
      const other = new Database(file);
      try {
        // A reader in WAL mode, as a running settle serve holds the file.
        other.prepare('select count(*) from kept').get();
        const run = await runSettle(['db', 'compact'], {
          cwd: dir,
          env,
        });
        expect(run.code).toBe(3);
        expect(run.stdout + run.stderr).toContain('ERR_DB_BUSY');
        expect(run.stdout + run.stderr).not.toMatch(/PRAGMA|SQLITE_BUSY/);
      } finally {
        other.close();
      }
      expect(pageFacts(file)).toMatchObject({ size: 4096, mode: 'wal', rows: 1000, check: 'ok' });
      // Its --help gives that refusal the code it exits with: 3, not 4 (work claimed elsewhere).
      const help = await runSettle(['db', 'compact', '--help'], { cwd: dir, env });
      expect(help.stdout).toMatch(/^ {2}3 {2}runtime failure \(.*stayed locked by another settle process/m);
      expect(help.stdout).toMatch(
        /^ {2}4 {2}already running: the work asked for is claimed by another settle process; nothing/m,
      );
    });
  }, 60_000);
});
