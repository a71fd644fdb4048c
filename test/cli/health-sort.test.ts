// `settle health --sort name`: the companies by name as the install's language (top-level
// `locale`) sorts them — bokmål puts Æ, Ø and Å after Z, English files them under A and O —
// through the same paged board query as the console; without --sort, those needing attention first.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const NAMES: Record<string, string> = {
  acme: 'ACME AS',
  ost: 'Øst AS',
  aker: 'Aker AS',
  zeta: 'Zeta AS',
  aerlig: 'Ærlig AS',
  asen: 'Åsen AS',
  berg: 'Berg AS',
};

describe('settle health --sort name', { timeout: 240_000 }, () => {
  it('lists the companies by name in the configured language, and by attention without it', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        for (const [id, name] of Object.entries(NAMES).filter(([id]) => id !== 'acme')) {
          await mkdir(join(dir, id), { recursive: true });
          await appendFile(
            file,
            `  - id: ${id}
    name: ${name}
    organisationNumber: "org${id}"
    banks: [{ bankId: ${SEED.bankId} }]
    root: ${JSON.stringify(join(dir, id))}
    people:
      - { name: Kari Nordmann, email: kari.nordmann@acme.example, roles: [operator] }
`,
          );
        }
        const english = await readFile(file, 'utf8');
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const health = async (...args: string[]): Promise<string[]> => {
          const run = await runSettle(['--config', file, 'health', '--json', ...args], { cwd: dir, env });
          expect(run.code, run.stderr).toBe(1); // none of them is onboarded
          const json = JSON.parse(run.stdout) as { companies: { company: string }[] };
          return json.companies.map((c) => NAMES[c.company]!);
        };

        const byEnglish = Object.values(NAMES).sort(new Intl.Collator('en', { sensitivity: 'base' }).compare);
        expect(await health('--sort', 'name')).toEqual(byEnglish);

        await writeFile(file, `locale: nb\n${english}`);
        const byBokmal = ['ACME AS', 'Aker AS', 'Berg AS', 'Zeta AS', 'Ærlig AS', 'Øst AS', 'Åsen AS'];
        expect(await health('--sort', 'name')).toEqual(byBokmal);
        expect(byBokmal).not.toEqual(byEnglish);
        // Without --sort: every one needs attention alike, so the configuration's order stands.
        expect(await health()).toEqual(Object.values(NAMES));

        const wrong = await runSettle(['--config', file, 'health', '--sort', 'size'], { cwd: dir, env });
        expect(wrong.code).not.toBe(0);
        expect(wrong.stderr).toMatch(/attention, name/);
      });
    } finally {
      await sandbox.close();
    }
  });
});
