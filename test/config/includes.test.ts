// A bureau's configuration in several files: the main file includes one file per client company
// (settle.d/*.yaml), people shared by companies are written once at the top level, and every
// problem in an included file is reported with that file and its line, by loadConfig and by
// `settle config check`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type ConfigProblem } from '../../src/config/index.js';
import { isSettleError } from '../../src/domain/errors.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const MAIN = `include: [settle.d/*.yaml]
people:
  - { person: kari, name: Kari Nordmann, email: kari@bureau.example }
companies:
  - { id: acme, name: ACME AS, organisationNumber: "900000001", root: ./acme, people: [{ person: kari, roles: [operator] }] }
`;

const company = (id: string, number: string, extra = '') =>
  `companies:\n  - id: ${id}\n    name: ${id} AS\n    organisationNumber: "${number}"\n    root: ./${id}\n${extra}`;

async function bureau(dir: string, files: Record<string, string>, main = MAIN): Promise<string> {
  await mkdir(join(dir, 'settle.d'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, 'settle.d', name), text);
  const file = join(dir, 'settle.yaml');
  await writeFile(file, main);
  return file;
}

function problemsOf(file: string, dir: string): ConfigProblem[] {
  try {
    loadConfig({ file, cwd: dir, env: {} });
    return [];
  } catch (error) {
    if (isSettleError(error, 'ERR_CONFIG_INVALID')) return (error.details?.problems ?? []) as ConfigProblem[];
    throw error;
  }
}

describe('included configuration files', () => {
  it('adds the companies of every matching file in name order, and fills in shared people', async () => {
    await withTempDir(async (dir) => {
      const file = await bureau(dir, {
        'beta.yaml': company('beta', '900000002', '    people:\n      - { person: kari, roles: [approver] }\n'),
        'alfa.yaml': company('alfa', '900000003'),
        '.beta.yaml.swp': 'not: [yaml',
        'notes.txt': 'not included',
      });
      const config = loadConfig({ file, cwd: dir, env: {} });
      expect(config.companies.map((c) => c.id)).toEqual(['acme', 'alfa', 'beta']);
      expect(config.companies.find((c) => c.id === 'beta')!.people).toEqual([
        { person: 'kari', name: 'Kari Nordmann', email: 'kari@bureau.example', roles: ['approver'] },
      ]);
      expect(config.source.included).toEqual([join(dir, 'settle.d/alfa.yaml'), join(dir, 'settle.d/beta.yaml')]);
    });
  });

  it('locates each problem of an included file by file and line', async () => {
    await withTempDir(async (dir) => {
      const file = await bureau(dir, {
        'alfa.yaml': company('alfa', '900000003', '    intake: { stableFor: soon }\n'),
        'beta.yaml': company('beta', '900000003', '    people:\n      - { person: nobody, roles: [viewer] }\n'),
      });
      const problems = problemsOf(file, dir);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'companies.1.intake.stableFor', file: 'settle.d/alfa.yaml', line: 6 }),
          expect.objectContaining({
            path: 'companies.2.people.0.person',
            file: 'settle.d/beta.yaml',
            line: 7,
            message: expect.stringContaining('no person "nobody" in the top-level people list'),
          }),
        ]),
      );
      // The unknown person's missing name and e-mail are not reported again.
      expect(problems.filter((p) => /^companies\.2\.people\.0\.(name|email)$/.test(p.path))).toEqual([]);
    });
  });

  it('refuses settings in an included file: they belong in the main file', async () => {
    await withTempDir(async (dir) => {
      const file = await bureau(dir, { 'gamma.yaml': `${company('gamma', '900000009')}transports: {}\n` });
      expect(problemsOf(file, dir)).toEqual([
        {
          path: 'transports',
          file: 'settle.d/gamma.yaml',
          line: 6,
          message: 'an included file holds only the lists companies and people; put "transports" in the main file',
        },
      ]);
    });
  });

  it('reports cross-checks (a company id or organisation number used twice) in the file that repeats it', async () => {
    await withTempDir(async (dir) => {
      const file = await bureau(dir, {
        'acme-again.yaml': company('acme', '900000005'),
        'zeta.yaml': company('zeta', '900000001'),
      });
      const problems = problemsOf(file, dir);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'companies.1.id', file: 'settle.d/acme-again.yaml', line: 2 }),
          expect.objectContaining({ path: 'companies.2.organisationNumber', file: 'settle.d/zeta.yaml', line: 4 }),
          // The main file's own problem keeps its key path, as before.
          { path: 'companies.0.organisationNumber', message: expect.stringContaining('also the number of zeta') },
        ]),
      );
    });
  });

  it('settle config check reads the included files, and shows a syntax error with its file, line and excerpt', async () => {
    await withTempDir(async (dir) => {
      const file = await bureau(dir, { 'acme.yaml': '' });
      const ok = await runSettle(['--config', file, 'config', 'check'], { cwd: dir });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('1 company(ies)');
      await writeFile(
        join(dir, 'settle.d', 'broken.yaml'),
        `${company('broken', '900000004')}    timeZone: Europe/Oslo: x\n`,
      );
      const bad = await runSettle(['--config', file, 'config', 'check'], { cwd: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/\(line \d+\) \(settle\.d\/broken\.yaml\): /);
      expect(bad.stderr).toContain('6 | ');
      await writeFile(file, `${MAIN.replace('settle.d/*.yaml', 'settle.d/*.yaml, clients/zeta.yaml')}`);
      const absent = await runSettle(['--config', file, 'config', 'check'], { cwd: dir });
      expect(absent.code).toBe(2);
      expect(absent.stderr).toMatch(/cannot read .*clients\/zeta\.yaml \(ENOENT\)/);
    });
  });
});
