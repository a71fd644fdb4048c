// `settle --version`, `--help` and `validate` load only what they need: no database driver,
// HTTP client or server, SSH, mail, metrics or logger; `settle run` no HTTP server, metrics,
// CloudEvents or SSH (docs/performance.md, start-up).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type Holidays from 'date-holidays';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { writeHolidayTables } from '../../src/domain/holiday-table.js';
import { writeBuiltProfiles } from '../../src/formats/csv-profile/built-profiles.js';
import { plainProfile, yamlValue } from '../../src/formats/csv-profile/plain-profile.js';

const rootUrl = new URL('../../', import.meta.url);
const root = fileURLToPath(rootUrl);
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
// Module hooks preloaded into the child: every npm package it resolves is named on stderr.
const hooks = `export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url)?.[1];
  if (name) process.stderr.write('settle-package ' + name + '\\n');
  const own = /\\/(src\\/i18n\\/.*)$/.exec(result.url)?.[1];
  if (own && !result.url.includes('/node_modules/')) process.stderr.write('settle-i18n ' + own + '\\n');
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

function packagesLoaded(
  args: string[],
): Promise<{ code: number | null; packages: Set<string>; i18n: Set<string>; stdout: string }> {
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
      resolve({
        code,
        stdout,
        packages: new Set([...stderr.matchAll(/^settle-package (\S+)$/gm)].map((m) => m[1]!)),
        i18n: new Set([...stderr.matchAll(/^settle-i18n (\S+)$/gm)].map((m) => m[1]!)),
      }),
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
    const { code, packages, i18n, stdout } = await packagesLoaded([
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
    // The accountant's report (hono, csv-stringify, negotiator) is for a company of another language.
    expect(['hono', 'csv-stringify', 'negotiator'].filter((p) => packages.has(p))).toEqual([]);
    // An English run reads no catalogue: of src/i18n only the fallback language's name, and none of
    // the packages the catalogues and the locale matcher bring (the matcher's import starts ICU).
    expect([...i18n]).toEqual(['src/i18n/fallback-locale.ts']);
    expect(
      ['@formatjs/intl-localematcher', 'intl-messageformat', '@formatjs/icu-messageformat-parser'].filter((p) =>
        packages.has(p),
      ),
    ).toEqual([]);
  }, 60_000);

  it('a shipped CSV profile whose value the build stored is read without the yaml library', async () => {
    // The values as `npm run build` writes them (scripts/profile-values.mjs), into a folder of its own.
    const dir = mkdtempSync(join(tmpdir(), 'settle-startup-profiles-'));
    try {
      writeBuiltProfiles(
        (text) => yamlValue(parseDocument, text),
        [new URL('config/profiles/', rootUrl)],
        pathToFileURL(dir + '/'),
      );
      const script = `
        import { createRequire } from 'node:module';
        import { readFileSync } from 'node:fs';
        import { plainProfile } from './src/formats/csv-profile/plain-profile';
        const text = readFileSync('config/profiles/generic.yaml', 'utf8');
        const profile = await plainProfile(text, 'config/profiles/generic.yaml', new URL(${JSON.stringify(pathToFileURL(dir + '/').href)}));
        const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/yaml/'));
        process.stdout.write(JSON.stringify({ profile, loaded: loaded.length }));`;
      const out = await runScript(script);
      const file = join(root, 'config/profiles/generic.yaml');
      const fromYaml = await plainProfile(readFileSync(file, 'utf8'), 'config/profiles/generic.yaml');
      expect(fromYaml).toBeDefined();
      expect(JSON.parse(out)).toEqual({ profile: JSON.parse(JSON.stringify(fromYaml)), loaded: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
      const out = await runScript(script);
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

/** Runs `script` as an ES module under the TypeScript loader from the checkout's root; its stdout. */
function runScript(script: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(stdout));
  });
}
