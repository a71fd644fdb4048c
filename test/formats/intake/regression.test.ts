// Every input that once broke a reader stays a test case (test/fixtures/intake/regression).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import { readCsv } from '../../../src/formats/csv-profile/read-csv.js';
import { check, FIXTURES, PROFILES } from './helpers.js';

const expected = JSON.parse(readFileSync(`${FIXTURES}regression/expected.json`, 'utf8')) as Record<
  string,
  { valid: boolean; codes: string[] }
>;

describe('regression inputs', () => {
  it('every input in the folder has an expectation', () => {
    const inputs = readdirSync(`${FIXTURES}regression`).filter((f) => f !== 'README.md' && f !== 'expected.json');
    expect(inputs.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s reads with the expected verdict and issue codes', async (file, want) => {
    const r = await check(`regression/${file}`);
    expect(r.valid).toBe(want.valid);
    expect([...new Set(r.codes)].sort()).toEqual(want.codes);
  });

  it('a record with a quoted line break is located at the line where it starts, and the rows after it keep their own line', async () => {
    const r = await check('regression/multiline-quoted-remittance.csv');
    expect(r.paymentsSeen.map((p) => p.lineNumber)).toEqual([2, 4]);
  });

  it('rows keep their lines when the quote of a line break comes in another chunk than the break, or after quote-free chunks', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const text = readFileSync(`${FIXTURES}regression/multiline-quoted-remittance.csv`, 'utf8');
    const quote = text.indexOf('"');
    const closing = text.indexOf('"', quote + 1);
    const header = text.indexOf('\n') + 1;
    // The record ends in a chunk without a quote when cut just after its closing quote.
    for (const cuts of [
      [header],
      [quote, quote + 1],
      [header, quote + 1, quote + 5],
      [closing + 1],
      [quote, closing + 1],
    ]) {
      const chunks = [0, ...cuts].map((at, i) => Buffer.from(text.slice(at, [...cuts, text.length][i])));
      const lines: number[] = [];
      for await (const batch of readCsv(chunks, profile))
        for (const item of batch) if (item.kind === 'line') lines.push(item.line.lineNumber);
      expect(lines, JSON.stringify(cuts)).toEqual([2, 4]);
    }
  });
});
