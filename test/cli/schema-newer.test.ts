// Upgrades with several instances: once a newer settle has migrated the database, an older
// `settle serve` or `settle run nightly` refuses to start work on it and says why — which
// migrations it does not know and what to do — instead of working on a schema it may misread.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli-paths.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const NEWER = '9999_later_release';

/** A database migrated by this build, then by a newer one (its migration row is all that shows). */
async function newerDatabase(dir: string): Promise<NodeJS.ProcessEnv> {
  const env = { SETTLE_DATA_DIR: join(dir, 'data') };
  const migrated = await runSettle(['db', 'migrate'], { cwd: dir, env });
  expect(migrated.code, migrated.stderr).toBe(0);
  const db = new Database(join(dir, 'data', 'settle.sqlite'));
  try {
    db.prepare('INSERT INTO settle_migrations (name, batch, migration_time) VALUES (?, 99, ?)').run(
      NEWER,
      new Date().toISOString(),
    );
  } finally {
    db.close();
  }
  return env;
}

function expectRefusal(output: string): void {
  expect(output).toContain('ERR_DB_MIGRATION_UNKNOWN');
  expect(output).toContain(NEWER);
  expect(output).toMatch(/newer settle/);
}

describe('a schema newer than this settle knows', () => {
  it('settle run nightly refuses it with exit 3, naming the unknown migration', async () => {
    await withTempDir(async (dir) => {
      const env = await newerDatabase(dir);
      const run = await runSettle(['run', 'nightly'], { cwd: dir, env });
      expect(run.code, run.stdout + run.stderr).toBe(3);
      expectRefusal(run.stdout + run.stderr);
      expect(run.stdout).not.toMatch(/^✓ /m);
    });
  }, 60_000);

  it('settle serve refuses to start on it, naming the unknown migration', async () => {
    await withTempDir(async (dir) => {
      const env = await newerDatabase(dir);
      const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--port', '0', '--grace', '1'], {
        cwd: dir,
        env: { ...process.env, ...env, SETTLE_LOG_FORMAT: 'json' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(timer);
      expect(code, output).toBe(3);
      expectRefusal(output);
      expect(output).not.toContain('settle serve started');
    });
  }, 60_000);
});
