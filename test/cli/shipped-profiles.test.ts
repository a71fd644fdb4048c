// Every CSV profile settle ships, through every command that takes one (issue #47, Must 6):
// `settle validate --profile` reads a file of the profile's kind with it, and `settle controls
// test` loads the company's intake.profile. A profile of the other kind is refused with what it
// is and what it is for, never with a schema's "kind: unknown key"; an unknown kind names the
// kinds there are.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_KINDS, profileKindOf } from '../../src/formats/csv-profile/index.js';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const ROOT = process.cwd();
const SHIPPED = join(ROOT, 'config', 'profiles');
/** A valid file in each shipped profile's format: a profile added without one fails here. */
const FILE_OF: Readonly<Record<string, string>> = {
  generic: 'test/fixtures/intake/valid/generic.csv',
  nordic: 'test/fixtures/intake/valid/nordic.csv',
  pain001py: 'test/fixtures/intake/pain001py/valid.csv',
  receivables: 'samples/erp/receivables/acme-open-items.csv',
};

describe('every shipped profile through every command that takes one', { timeout: 180_000 }, () => {
  let profiles: { name: string; kind: keyof typeof PROFILE_KINDS }[];
  let dir: string;
  let cleanup: () => Promise<void>;
  let sandbox: RunningSandbox;
  let config: string;

  beforeAll(async () => {
    profiles = await Promise.all(
      (await readdir(SHIPPED))
        .filter((f) => f.endsWith('.yaml'))
        .map(async (f) => ({
          name: f.replace(/\.yaml$/, ''),
          kind: profileKindOf(await readFile(join(SHIPPED, f), 'utf8'), f),
        })),
    );
    ({ dir, cleanup } = await makeTempDir());
    sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: '2026-01-05T08:00:00Z' });
    config = await writeDemoConfig(dir, sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
    await cleanup?.();
  });

  it('ships profiles of every kind, each with a file to read', () => {
    expect(new Set(profiles.map((p) => p.kind))).toEqual(new Set(Object.keys(PROFILE_KINDS)));
    for (const p of profiles) expect(FILE_OF[p.name], `a valid file for the shipped profile ${p.name}`).toBeDefined();
  });

  it('settle validate --profile reads a file of each profile’s kind with it', async () => {
    for (const p of profiles) {
      const run = await runSettle(
        ['validate', '--profile', p.name, '--as-of', '2026-01-05', join(ROOT, FILE_OF[p.name]!)],
        {
          cwd: dir,
        },
      );
      expect(run.stderr, p.name).not.toContain('ERR_PROFILE_INVALID');
      expect(run.code, `${p.name}: ${run.stdout}${run.stderr}`).toBe(0);
      expect(run.stdout, p.name).toContain(
        p.kind === 'receivables' ? `receivables profile "${p.name}"` : `csv:${p.name}`,
      );
    }
  });

  it('settle controls test loads each payments profile as the company’s intake.profile and refuses the others by kind', async () => {
    const base = await readFile(config, 'utf8');
    for (const p of profiles) {
      const file = join(dir, `settle-${p.name}.yaml`);
      const yaml = base.replace(
        '    intake:\n      stableFor: 1s',
        `    intake:\n      stableFor: 1s\n      profile: ${p.name}`,
      );
      expect(yaml, 'the demo configuration has an intake block').toContain(`profile: ${p.name}`);
      await writeFile(file, yaml);
      const payments = p.kind === 'payments' ? FILE_OF[p.name]! : FILE_OF.generic!;
      const run = await runSettle(['--config', file, 'controls', 'test', join(ROOT, payments)], { cwd: dir });
      if (p.kind === 'payments') expect(run.code, `${p.name}: ${run.stdout}${run.stderr}`).toBeLessThan(2);
      else {
        expect(run.code, `${p.name}: ${run.stdout}${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(`is a receivables profile (${PROFILE_KINDS.receivables})`);
        expect(run.stderr).toContain('here a payments profile is needed');
        expect(run.stderr).not.toContain('unknown key');
      }
    }
  });

  it('an unknown kind is refused with the kinds there are', async () => {
    await mkdir(join(dir, 'config', 'profiles'), { recursive: true });
    await writeFile(
      join(dir, 'config', 'profiles', 'invoices.yaml'),
      (await readFile(join(SHIPPED, 'receivables.yaml'), 'utf8')).replace('kind: receivables', 'kind: invoices'),
    );
    const run = await runSettle(['validate', '--profile', 'invoices', join(ROOT, FILE_OF.receivables!)], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ERR_PROFILE_INVALID');
    expect(run.stderr).toContain('kind "invoices" is not a profile kind settle reads (payments, receivables)');
  });
});
