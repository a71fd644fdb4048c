// The shipped CSV profiles as data read at build time: `npm run build` (scripts/profile-values.mjs)
// writes the value of each config/profiles/*.yaml that parses without errors into
// dist/src/formats/csv-profile/built/<sha256 of its text>.json. Loading the yaml library costs
// about 70 modules a process, more than `settle validate` of a small file needs besides
// (docs/decisions/0020). A text is found by its own hash, so an edited or a company's own
// profile, or a run from the sources (no build), is parsed by yaml as before: the table changes
// what reading a profile costs, never what it reads.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const DEFAULT_DIR = new URL('./built/', import.meta.url);

const fileOf = (text: string, dir: URL): URL => new URL(`${createHash('sha256').update(text).digest('hex')}.json`, dir);

/** The value the build stored for this exact profile text, or undefined when it stored none. */
export function builtProfileValue(text: string, dir: URL = DEFAULT_DIR): unknown {
  const file = fileOf(text, dir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

/**
 * The build's step: the value `read` gives each .yaml profile in `profileDirs`, stored in `outDir`
 * when the text parses without errors and JSON carries the value unchanged.
 */
export function writeBuiltProfiles(read: (text: string) => unknown, profileDirs: readonly URL[], outDir: URL): void {
  mkdirSync(outDir, { recursive: true });
  for (const dir of profileDirs) {
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
      const text = readFileSync(new URL(name, dir), 'utf8');
      const value = read(text);
      if (value === undefined) continue;
      const json = JSON.stringify(value);
      if (isDeepStrictEqual(JSON.parse(json), value)) writeFileSync(fileOf(text, outDir), json + '\n');
    }
  }
}
