// `settle validate` and the pickup job validate with one function (intake-settings.ts); its
// defaults are what the configuration gives a company that sets no intake key, and every CSV
// profile settle ships loads, by its kind, through validate and through the loaders the jobs use.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../../src/cli/commands/validate.js';
import { configSchema } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/domain/clock.js';
import { DEFAULT_INTAKE } from '../../../src/formats/intake/intake-settings.js';
import { profileLoader, receivablesProfileLoader } from '../../../src/main/profiles.js';
import { FIXTURES, PROFILES } from './helpers.js';

describe('the intake settings validate and pickup share', () => {
  it('default to what the configuration gives a company that sets none', () => {
    const company = configSchema.parse({
      companies: [{ id: 'a', name: 'A', organisationNumber: '1', root: '/tmp/a' }],
    }).companies[0]!;
    const { holidayPolicy, calendar, charset, maxAmount } = company.intake;
    expect({ holidayPolicy, calendar, charset, ...(maxAmount ? { maxAmount } : {}) }).toEqual(DEFAULT_INTAKE);
  });
});

describe('every shipped profile, through every command that takes one', () => {
  const profiles = readdirSync(PROFILES)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => {
      const name = f.replace(/\.yaml$/, '');
      const receivables = /^kind: receivables$/m.test(readFileSync(`${PROFILES}${f}`, 'utf8'));
      return [name, receivables ? 'receivables' : 'payments'] as const;
    });
  const sample: Record<string, string> = {
    generic: `${FIXTURES}valid/generic.csv`,
    nordic: `${FIXTURES}valid/nordic.csv`,
    pain001py: `${FIXTURES}pain001py/valid.csv`,
    receivables: `${FIXTURES}../../../samples/erp/receivables/acme-open-items.csv`,
  };

  it('names a sample for each', () => expect(profiles.map(([n]) => n).sort()).toEqual(Object.keys(sample).sort()));

  it.each(profiles)('settle validate --profile %s (%s) reads its sample as valid', async (name, kind) => {
    const out: string[] = [];
    const o = await runValidate(
      sample[name]!,
      { profile: name, json: true },
      { profileDirs: [PROFILES], clock: new ManualClock('2026-01-05T08:00:00Z'), cwd: FIXTURES },
      { out: (t) => void out.push(t), err: (t) => void out.push(t) },
    );
    expect(o.exitCode, out.join('')).toBe(0);
    const json = JSON.parse(out.join('')) as { format: string; kind?: string };
    expect(json.format).toBe(`csv:${name}`);
    expect(json.kind ?? 'payments').toBe(kind);
  });

  it.each(profiles)('the jobs load %s (%s) with the loader of its kind', async (name, kind) => {
    const load = kind === 'receivables' ? receivablesProfileLoader([PROFILES]) : profileLoader([PROFILES]);
    expect((await load(name)).name).toBe(name);
  });
});
