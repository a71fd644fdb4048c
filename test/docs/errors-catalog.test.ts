// The error catalogue (src/domain/error-catalogue.ts) and docs/errors.md must agree: the same
// codes, once each, with the same exit codes, every row saying what the code means and what to
// do; and every code the source names must be a catalogue code (JavaScript in bin/ and codes
// written into messages escape the typecheck, so the source is scanned too).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, isErrorCode } from '../../src/domain/error-catalogue.js';
import { SettleError } from '../../src/domain/errors.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CODE = /['"`](ERR_[A-Z0-9_]+)['"`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|js)$/.test(name) ? [path] : [];
  });
}

function codesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const dir of ['src', 'jobs', 'bin']) {
    for (const file of sourceFiles(join(root, dir)).filter((f) => !f.endsWith('error-catalogue.ts'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(CODE)) codes.add(m[1]!);
      // codes written into a message template, e.g. `settle: ERR_USAGE: …`
      for (const m of text.matchAll(/settle: (ERR_[A-Z0-9_]+)/g)) codes.add(m[1]!);
    }
  }
  return codes;
}

interface DocRow {
  code: string;
  exit: string;
  meaning: string;
  whatToDo: string;
}

function docRows(): DocRow[] {
  const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  return [...text.matchAll(/^\| (ERR_[A-Z0-9_]+) \|(.*)\|\s*$/gm)].map((m) => {
    const [exit = '', meaning = '', whatToDo = ''] = m[2]!.split(' | ').map((cell) => cell.trim());
    return { code: m[1]!, exit, meaning, whatToDo };
  });
}

const catalogueCodes = Object.keys(errorCatalogue);

describe('error catalogue and docs/errors.md', () => {
  it('documents every catalogue code once, and nothing else', () => {
    const documented = docRows().map((row) => row.code);
    expect(documented.length).toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual([...catalogueCodes].sort());
  });

  it('gives each code the exit code of the catalogue, a meaning and what to do', () => {
    for (const row of docRows()) {
      if (!isErrorCode(row.code)) continue;
      expect(row.exit, row.code).toBe(String(errorCatalogue[row.code].exit));
      expect(row.meaning, row.code).not.toBe('');
      expect(row.whatToDo, row.code).not.toBe('');
    }
  });

  it('knows every code the source names, and names none the source no longer uses', () => {
    const used = codesInSource();
    expect([...used].filter((code) => !isErrorCode(code)).sort()).toEqual([]);
    expect(catalogueCodes.filter((code) => !used.has(code)).sort()).toEqual([]);
  });

  it('raises a SettleError with the exit code of its catalogue entry', () => {
    expect(new SettleError('ERR_USAGE', 'x').exitCode).toBe(2);
    expect(new SettleError('ERR_ALREADY_RUNNING', 'x').exitCode).toBe(4);
    expect(new SettleError('ERR_DB_FILE_DUPLICATE', 'x').exitCode).toBe(1);
  });
});
