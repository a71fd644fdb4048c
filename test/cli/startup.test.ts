// `settle --version`, `--help` and `validate` load only what they need: no database driver,
// HTTP client or server, SSH, mail, metrics or logger; `settle run` no HTTP server, metrics,
// CloudEvents or SSH (docs/performance.md, start-up).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Holidays from 'date-holidays';
import { describe, expect, it } from 'vitest';
import { writeHolidayTables } from '../../src/domain/holiday-table.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
// Module hooks preloaded into the child: every npm package it resolves is named on stderr.
const hooks = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url)?.[1];
  if (name) process.stderr.write('settle-package ' + name + '\\n');
  return result;
}`;
const trace = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`,
)}`;
/** What running from source with tsx loads itself (the installed CLI runs compiled dist/). */
const TS_TOOLING = new Set(['tsx', 'esbuild', 'get-tsconfig', 'resolve-pkg-maps']);
const HEAVY = [
  'knex',
  'better-sqlite3',
  'mysql2',
  'undici',
  'fastify',
  'ssh2',
  'ssh2-sftp-client',
  'nodemailer',
  'prom-client',
  'winston',
  'node-cron',
];

function packagesLoaded(args: string[]): Promise<{ code: number | null; packages: Set<string>; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', trace, '--import', tsxLoader, 'src/cli/main.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout, packages: new Set([...stderr.matchAll(/^settle-package (\S+)$/gm)].map((m) => m[1]!)) }),
    );
  });
}

describe('start-up of the command line', () => {
  it('settle --version and --help load commander and nothing heavy', async () => {
    for (const args of [['--version'], ['--help']]) {
      const { code, packages, stdout } = await packagesLoaded(args);
      expect(code, args.join(' ')).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      expect([...packages].filter((p) => p !== 'commander' && !TS_TOOLING.has(p))).toEqual([]);
    }
  }, 60_000);

  it('settle --help still lists every command with its summary', async () => {
    const { stdout } = await packagesLoaded(['--help']);
    for (const name of ['validate', 'run', 'serve', 'sandbox', 'payments', 'approvals', 'consents', 'config'])
      expect(stdout).toMatch(new RegExp(`^  ${name}\\b.*\\S`, 'm'));
  }, 60_000);

  it('settle validate reads a file without loading the database, HTTP, SSH, mail or metrics', async () => {
    const { code, packages, stdout } = await packagesLoaded([
      'validate',
      '--as-of',
      '2026-01-05',
      'samples/erp/acme-payments.csv',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/valid/i);
    expect(packages.has('csv-parse')).toBe(true); // the trace sees what is loaded
    expect(HEAVY.filter((p) => packages.has(p))).toEqual([]);
    // A valid CSV profile is read without the schema library, and the XML parser is for pain.001 only.
    expect(['zod', 'saxes'].filter((p) => packages.has(p))).toEqual([]);
  }, 60_000);

  it('validating a UTF-8 CSV file does not load iconv-lite (csv-parse decodes UTF-8 itself)', async () => {
    // CommonJS packages loaded with createRequire pass no import hook: asked of the require cache.
    const script = `
      import { createRequire } from 'node:module';
      import { loadProfile } from './src/formats/csv-profile/load-profile';
      import { validateFile } from './src/formats/intake/validate-file';
      const profile = await loadProfile('generic', ['config/profiles']);
      const result = await validateFile('samples/erp/acme-payments.csv', { profile, validation: { asOf: '2026-01-05' } });
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/iconv-lite/'));
      process.stdout.write(JSON.stringify({ payments: result.payments, iconv: loaded.length }));`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(stdout));
    });
    const { payments, iconv } = JSON.parse(out) as { payments: number; iconv: number };
    expect(payments).toBeGreaterThan(0);
    expect(iconv).toBe(0);
  }, 60_000);

  it('a calendar whose country and year the built table holds does not load date-holidays', async () => {
    // The table as `npm run build` writes it (scripts/holiday-table.mjs), into a folder of its own.
    const dir = mkdtempSync(join(tmpdir(), 'settle-startup-holidays-'));
    try {
      writeHolidayTables(createRequire(import.meta.url)('date-holidays') as typeof Holidays, pathToFileURL(dir + '/'));
      const script = `
        import { createRequire } from 'node:module';
        import { businessCalendar } from './src/domain/business-calendar';
        const calendar = businessCalendar('NO', new URL(${JSON.stringify(pathToFileURL(dir + '/').href)}));
        const answer = [calendar.isBusinessDay('2026-05-17'), calendar.holidayName('2026-05-17'), calendar.isBusinessDay('2026-05-18')];
        const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/date-holidays'));
        process.stdout.write(JSON.stringify({ answer, loaded: loaded.length }));`;
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(stdout));
      });
      expect(JSON.parse(out)).toEqual({ answer: [false, 'Grunnlovsdagen', true], loaded: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('settle run loads the database, the bank client and the logger, not the HTTP server, metrics, CloudEvents or SSH', async () => {
    // Every `settle run …` under a timer, and each of a bureau's instances every night, pays its
    // start-up; the server's packages belong to `settle serve`, SSH to an SFTP connection.
    const { code, packages, stdout } = await packagesLoaded(['run', 'nightly', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--dry-run');
    expect(['knex', 'undici', 'winston'].filter((p) => !packages.has(p))).toEqual([]); // the trace sees what is loaded
    expect(
      ['fastify', 'prom-client', 'cloudevents', 'ssh2', 'ssh2-sftp-client'].filter((p) => packages.has(p)),
    ).toEqual([]);
  }, 60_000);

  it('a command other than the one run is not loaded, but the one run is complete', async () => {
    const { code, stdout } = await packagesLoaded(['payments', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('show');
  }, 60_000);
});
