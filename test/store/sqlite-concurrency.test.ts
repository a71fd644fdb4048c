// Several settle processes on one SQLite file: a transaction that reads before it writes must
// wait for another process's write lock instead of failing with "database is locked" (it starts
// with BEGIN IMMEDIATE), and opening and migrating a fresh file at the same moment works too.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

const script = fileURLToPath(new URL('../support/sqlite-writer.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

function writer(file: string, who: string, count: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, script, file, who, String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('SQLite shared by several processes', () => {
  it('runs read-then-write transactions of three processes at once without "database is locked"', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'settle.sqlite');
      const results = await Promise.all(['a', 'b', 'c'].map((who) => writer(file, who, 40)));
      expect(results.map((r) => r.out.trim())).toEqual(['ok 40', 'ok 40', 'ok 40']);
      const db = await openDatabase({ url: `sqlite:${file}` });
      try {
        const [row] = await db.knex('leases').count({ n: '*' });
        expect(Number(row?.n)).toBe(120);
      } finally {
        await db.close();
      }
    });
  }, 60_000);
});

describe('a SQLite lock held longer than settle waits', () => {
  it('is ERR_DB_BUSY, one sentence without SQL, and the transaction changed nothing', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'settle.sqlite');
      const db = await openDatabase({ url: `sqlite:${file}`, busyTimeoutMs: 50 });
      await db.migrate();
      // Another process's open write transaction (a raw handle on the same file).
      const other = new Database(file);
      other.exec('BEGIN IMMEDIATE');
      try {
        const error = await db
          .transaction(async (trx) => {
            await trx('leases').insert({ name: 'x', holder: 'h', acquired_at: 'a', expires_at: 'b' });
          })
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(error).toMatchObject({ code: 'ERR_DB_BUSY', exitCode: 3 });
        expect((error as Error).message).not.toMatch(/insert|leases|select/i);
      } finally {
        other.exec('ROLLBACK');
        other.close();
      }
      expect(await db.knex('leases').where({ name: 'x' })).toEqual([]);
      await db.close();
    });
  });
});
