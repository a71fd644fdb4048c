// CSV profiles: the shipped ones load, and a bad profile is refused with every problem located
// (file, line, key path) in one ERR_PROFILE_INVALID.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSettleError, type SettleError } from '../../../src/domain/errors.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import { parseProfile } from '../../../src/formats/csv-profile/parse-profile.js';
import { PROFILES } from './helpers.js';

function refusal(fn: () => unknown): SettleError {
  try {
    fn();
  } catch (error) {
    if (isSettleError(error)) return error;
    throw error;
  }
  throw new Error('expected a SettleError');
}

describe('CSV profiles', () => {
  it.each(['generic', 'nordic', 'pain001py'])('the shipped profile %s loads', async (name) => {
    const p = await loadProfile(name, [PROFILES]);
    expect(p.name).toBe(name);
    expect(Object.isFrozen(p)).toBe(true);
  });

  it('the generic profile is UTF-8, comma, "." decimal and ISO dates with the documented header', async () => {
    const p = await loadProfile('generic', [PROFILES]);
    expect([p.encoding, p.delimiter, p.decimalSeparator, p.dateFormat]).toEqual(['utf-8', ',', '.', 'YYYY-MM-DD']);
    expect(Object.values(p.columns).join(',')).toBe(
      'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_bic,remittance_information,creditor_reference,instruction_priority,creditor_org_id,creditor_id',
    );
  });

  it('reports an unknown key, a bad value and a missing required column together, each with its line and key path', () => {
    const text = [
      'name: bad',
      'delimiter: ";;"',
      'colour: blue',
      'columns:',
      '  debtorIban: a',
      '  amount: b',
      '  payee: c',
    ].join('\n');
    const e = refusal(() => parseProfile(text, 'bad.yaml'));
    expect(e.code).toBe('ERR_PROFILE_INVALID');
    expect(e.exitCode).toBe(2);
    const problems = e.details!.problems as { line?: number; path: string; message: string }[];
    expect(problems.map((p) => [p.line, p.path])).toEqual(
      expect.arrayContaining([
        [2, 'delimiter'],
        [3, 'colour'],
        [5, 'columns'],
        [7, 'columns.payee'],
      ]),
    );
    expect(e.message).toContain('colour');
    expect(e.message).toMatch(/requestedExecutionDate/);
  });

  it('reports YAML syntax errors with their line', () => {
    const e = refusal(() => parseProfile('columns:\n  a: [unclosed\n', 'broken.yaml'));
    expect(e.code).toBe('ERR_PROFILE_INVALID');
    expect(e.message).toMatch(/broken\.yaml:\d/);
  });

  describe('loading from folders', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'settle-profiles-'));
      await writeFile(join(dir, 'generic.yaml'), 'columns: {}\n');
    });
    afterAll(async () => rm(dir, { recursive: true, force: true }));

    it('takes the first folder that has the profile', async () => {
      await expect(loadProfile('generic', [dir, PROFILES])).rejects.toMatchObject({ code: 'ERR_PROFILE_INVALID' });
      await expect(loadProfile('nordic', [dir, PROFILES])).resolves.toMatchObject({ name: 'nordic' });
    });

    it('refuses an unknown profile and a name that would leave the folder', async () => {
      await expect(loadProfile('nope', [dir])).rejects.toMatchObject({ code: 'ERR_PROFILE_NOT_FOUND', exitCode: 2 });
      await expect(loadProfile('../etc/passwd', [dir])).rejects.toMatchObject({ code: 'ERR_PROFILE_NOT_FOUND' });
    });
  });
});
