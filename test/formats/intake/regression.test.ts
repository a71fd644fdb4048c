// Every input that once broke a reader stays a test case (test/fixtures/intake/regression).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { check, FIXTURES } from './helpers.js';

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
});
