// Not onboarded is red: a company with no usable consent and no enabled account is never shown
// as all clear — `settle health` (table and --json) names what is missing and the commands that
// fix it and exits 1, and the console's Today for it says so — while its onboarded neighbour
// stays green.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withDemoServe } from '../support/demo-serve.js';
import { withTempDir } from '../support/tmp.js';

interface HealthJson {
  onboarding: { company: string; onboarded: boolean; missing: string[]; why: string; fix: string[] }[];
  notOnboarded: string[];
  companies: {
    company: string;
    name: string;
    onboarded: boolean;
    needsAttention: boolean;
    lastNight: { done: boolean }[];
  }[];
}

describe('a company that is not onboarded', { timeout: 240_000 }, () => {
  it('is red in settle health and on Today, with what is missing and how to fix it', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox, { console: true });
        await mkdir(join(dir, 'newco'), { recursive: true });
        await appendFile(
          file,
          `  - id: newco
    name: NewCo AS
    organisationNumber: "888888888"
    banks: [{ bankId: ${SEED.bankId} }]
    root: ${JSON.stringify(join(dir, 'newco'))}
    people:
      - { name: Kari Nordmann, email: kari.nordmann@acme.example, roles: [operator] }
`,
        );
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const night = await runSettle(['--config', file, 'run', 'nightly', '--company', 'acme'], { cwd: dir, env });
        expect(night.code, night.stderr).not.toBe(3);

        const json = await runSettle(['--config', file, 'health', '--json'], { cwd: dir, env });
        expect(json.code).toBe(1);
        const health = JSON.parse(json.stdout) as HealthJson;
        expect(health.notOnboarded, JSON.stringify(health.onboarding)).toEqual(['newco']);
        expect(health.companies.map((c) => [c.company, c.name, c.onboarded, c.needsAttention])).toEqual([
          ['newco', 'NewCo AS', false, true],
          ['acme', 'ACME AS', true, expect.any(Boolean)],
        ]);
        expect(health.companies[1]!.lastNight.every((s) => s.done)).toBe(true);
        expect(health.onboarding).toEqual([
          expect.objectContaining({ company: 'acme', onboarded: true, missing: [] }),
          expect.objectContaining({
            company: 'newco',
            onboarded: false,
            missing: ['consent', 'enabled-account'],
            fix: [`settle consents create --bank ${SEED.bankId} --org 888888888`, 'settle run nightly --company newco'],
          }),
        ]);

        const table = await runSettle(['--config', file, 'health'], { cwd: dir, env });
        expect(table.code).toBe(1);
        // The board: the company not onboarded first, then its onboarded neighbour, whose night ran.
        expect(table.stdout).toMatch(/^COMPANY\s+NAME\s+ONBOARDED\s+MISSING\s+LAST NIGHT\s+REJECTED\s+HELD\s+UNKNOWN/m);
        expect(table.stdout).toMatch(/^newco\s+NewCo AS\s+NO\s+consent, enabled-account\s+0\/9 done, not: pickup /m);
        expect(table.stdout).toMatch(/^acme\s+ACME AS\s+yes\s+-\s+9\/9 done\s/m);
        expect(table.stdout.indexOf('newco ')).toBeLessThan(table.stdout.indexOf('acme '));
        expect(table.stdout).toContain('NewCo AS (newco): not onboarded: no usable consent and no enabled account');
        expect(table.stdout).toContain(`  settle consents create --bank ${SEED.bankId} --org 888888888\n`);

        await withDemoServe(file, dir, async (_serve, client) => {
          const newco = await (await client.request('/console/?company=newco')).text();
          expect(newco).toMatch(
            /<section role="alert"[^>]*>\s*<h2 id="onboarding" class="bad">NewCo AS is not onboarded<\/h2>/,
          );
          expect(newco).toContain(`<code>settle consents create --bank ${SEED.bankId} --org 888888888</code>`);
          const acme = await (await client.request('/console/?company=acme')).text();
          expect(acme).toContain('Today — ACME AS');
          expect(acme).not.toContain('not onboarded');
        });
      });
    } finally {
      await sandbox.close();
    }
  });
});
