// docs/errors.md and the code must list the same error codes: a code thrown but not documented,
// or documented but no longer used, fails this test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CODE = /['"`](ERR_[A-Z0-9_]+)['"`]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

function codesInSource(): Set<string> {
  const codes = new Set<string>();
  for (const dir of ['src', 'jobs', 'bin']) {
    let files: string[] = [];
    try {
      files = sourceFiles(join(root, dir));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(CODE)) codes.add(m[1]!);
      // codes written into a message template, e.g. `settle: ERR_USAGE: …`
      for (const m of text.matchAll(/settle: (ERR_[A-Z0-9_]+)/g)) codes.add(m[1]!);
    }
  }
  return codes;
}

function codesInDocs(): string[] {
  const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  return [...text.matchAll(/^\| (ERR_[A-Z0-9_]+) \|/gm)].map((m) => m[1]!);
}

describe('docs/errors.md', () => {
  it('documents every error code the code uses, once', () => {
    const documented = codesInDocs();
    expect(documented.length).toBe(new Set(documented).size);
    const missing = [...codesInSource()].filter((c) => !documented.includes(c)).sort();
    expect(missing).toEqual([]);
  });

  it('lists no code that the code no longer uses', () => {
    const used = codesInSource();
    expect(
      codesInDocs()
        .filter((c) => !used.has(c))
        .sort(),
    ).toEqual([]);
  });

  it('gives every code a documented exit code', () => {
    const text = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    for (const m of text.matchAll(/^\| (ERR_[A-Z0-9_]+) \| ([^|]*) \|/gm))
      expect(['1', '2', '3', '4'], m[1]).toContain(m[2]!.trim());
  });
});
