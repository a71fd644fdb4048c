// A report's JSON written piece by piece (src/formats/intake/json-with-more.ts) is, byte for byte,
// what JSON.stringify makes of the whole object: over generated objects and issue lists, empty
// ones, nested values, quotes, escapes and text outside ASCII, lists past one chunk, and entries
// given as bytes cut anywhere (as a work file of spilled issues gives them back).
import { describe, expect, it } from 'vitest';
import { jsonListEntry, jsonWithMore } from '../../../src/formats/intake/index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['row 2', 'IBAN "NO12"', 'line\nbreak', 'tab\there', 'æøå €', '\\back', '', '‮bidi', '😀'];

function value(r: () => number, depth: number): unknown {
  const k = Math.floor(r() * (depth > 2 ? 4 : 7));
  if (k === 0) return WORDS[Math.floor(r() * WORDS.length)];
  if (k === 1) return Math.floor(r() * 1e6) / 100;
  if (k === 2) return r() < 0.5 ? null : r() < 0.5;
  if (k === 3) return {};
  if (k === 4) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, (_, i) => [`k${i}`, value(r, depth + 1)]));
}

const issue = (r: () => number) => ({
  code: 'LIKELY_DUPLICATE',
  severity: 'warning',
  location: r() < 0.3 ? {} : { row: Math.floor(r() * 1e6) },
  field: r() < 0.5 ? null : 'endToEndId',
  message: `payment "${WORDS[Math.floor(r() * WORDS.length)]}" is held`,
  extra: value(r, 0),
});

const text = (chunks: Iterable<Buffer>) => Buffer.concat([...chunks]).toString('utf8');

describe('jsonWithMore', () => {
  it('writes what JSON.stringify wrote, over generated reports', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const kept = Array.from({ length: Math.floor(r() * 4) }, () => issue(r));
      const more = Array.from({ length: Math.floor(r() * (seed % 10 === 0 ? 800 : 5)) }, () => issue(r));
      const head = { file: 'a.csv', format: 'csv-generic', payments: seed, totals: [value(r, 0)], issues: kept };
      const whole = JSON.stringify({ ...head, issues: [...kept, ...more] }, null, 2) + '\n';
      const entries = more.map(jsonListEntry);
      expect(text(jsonWithMore(head, 'issues', entries)), `seed ${seed}`).toBe(whole);
      // The same entries as bytes, cut at places that fall inside entries and characters.
      const bytes = Buffer.from(entries.join(''));
      const cuts = [0, ...Array.from({ length: 3 }, () => Math.floor(r() * bytes.length)).sort((a, b) => a - b)];
      const pieces = cuts.map((at, i) => bytes.subarray(at, cuts[i + 1] ?? bytes.length));
      expect(text(jsonWithMore(head, 'issues', pieces)), `seed ${seed}, bytes`).toBe(whole);
    }
  });

  it('gives the bytes in chunks, and again from the start each time it is asked', () => {
    const more = Array.from({ length: 2000 }, (_, i) => jsonListEntry({ code: 'X', message: `entry ${i}` }));
    const chunks = [...jsonWithMore({ issues: [] }, 'issues', more)];
    expect(chunks.length).toBeGreaterThan(1);
    expect(text(chunks)).toBe(text(jsonWithMore({ issues: [] }, 'issues', more)));
  });

  it('refuses an object whose last key is not the array, and entries not as jsonListEntry writes them', () => {
    expect(() => [...jsonWithMore({ issues: [], file: 'a' }, 'issues', [])]).toThrow(
      'jsonWithMore: "issues" must be the last key of the object and an array',
    );
    expect(() => [...jsonWithMore({ issues: [] }, 'issues', ['{"code":"X"}'])]).toThrow(
      'jsonWithMore: the entries must be as jsonListEntry writes them',
    );
    expect(() => [...jsonWithMore({ issues: [] }, 'issues', [Buffer.from('\n    {}')])]).toThrow(
      'jsonWithMore: the entries must be as jsonListEntry writes them',
    );
  });
});
