// Vitest global set-up: compiles src/ and jobs/ once per test run into .test-cli/, laid out like
// dist/, so the CLI tests start the settle process as the installed binary does, on plain
// JavaScript. Starting each child through tsx instead transpiled the CLI's module graph again in
// every process: about twice the CPU of a compiled start, which on a loaded machine pushed
// the CLI and security suites past their timeouts. esbuild only strips types (the typecheck is
// `npm run typecheck`), so this takes a second, not the full `tsc` build. The benches build
// here too (bench/bureau.ts, bench/intake.ts), so what they time is the code a user runs.
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type * as HolidayTable from '../../src/domain/holiday-table.js';
import type * as BuiltProfiles from '../../src/formats/csv-profile/built-profiles.js';
import type * as PlainProfile from '../../src/formats/csv-profile/plain-profile.js';
import { CLI_BUILD_DIR, ROOT } from './cli-paths.js';

function typeScriptFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => join(ROOT, dir, name));
}

/**
 * src/ and jobs/, and the folders in `alsoDirs` (e.g. a bench's own child code, compiled beside
 * them so its relative imports reach the compiled settle). Vitest calls the default export with
 * a context of its own, hence the separate named function for the extra folders.
 */
export async function buildCompiled(alsoDirs: readonly string[]): Promise<void> {
  rmSync(CLI_BUILD_DIR, { recursive: true, force: true });
  await build({
    entryPoints: ['src', 'jobs', ...alsoDirs].flatMap(typeScriptFiles),
    outdir: CLI_BUILD_DIR,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    // The pages' JSX, as tsconfig.json compiles it: hono/jsx's runtime, which escapes by default.
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    logLevel: 'warning',
  });
  await writeHolidayTablesInto(CLI_BUILD_DIR);
  await writeBuiltProfilesInto(CLI_BUILD_DIR);
}

/** The build's profile step (scripts/profile-values.mjs) on the compiled copy. */
async function writeBuiltProfilesInto(buildDir: string): Promise<void> {
  const compiled = (file: string) => pathToFileURL(join(buildDir, 'src/formats/csv-profile', file)).href;
  const { writeBuiltProfiles } = (await import(compiled('built-profiles.js'))) as typeof BuiltProfiles;
  const { yamlValue } = (await import(compiled('plain-profile.js'))) as typeof PlainProfile;
  const { parseDocument } = await import('yaml');
  writeBuiltProfiles(
    (text) => yamlValue(parseDocument, text),
    [pathToFileURL(join(ROOT, 'config/profiles/'))],
    pathToFileURL(join(buildDir, 'src/formats/csv-profile/built/')),
  );
}

/**
 * The build's table step (scripts/holiday-table.mjs) on the compiled copy: without the tables the
 * compiled CLI asked date-holidays for every calendar, so the tests and benches that start it
 * measured and ran a start-up the installed CLI does not have (docs/decisions/0019).
 */
async function writeHolidayTablesInto(buildDir: string): Promise<void> {
  const compiled = pathToFileURL(join(buildDir, 'src/domain/holiday-table.js')).href;
  const { writeHolidayTables } = (await import(compiled)) as typeof HolidayTable;
  const Holidays = createRequire(import.meta.url)('date-holidays') as Parameters<typeof writeHolidayTables>[0];
  writeHolidayTables(Holidays, pathToFileURL(join(buildDir, 'src/domain/holidays/')));
}

export default async function buildCli(): Promise<void> {
  await buildCompiled([]);
}
