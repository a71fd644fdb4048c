// schedule.companiesAtOnce: one `settle run nightly` works on that many companies at once, so
// one company's wait on the bank overlaps with another's chain; with 1 it works them one after
// another. Either way each company's steps run in order, each chain once, no payment twice.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { companyId, writeBureau } from '../support/bureau.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const COMPANIES = 4;
const LINES = 2;
const STEPS = ['pickup', 'submit', 'approve', 'status', 'fetch', 'status-report', 'export', 'consents', 'reconcile'];

/** The step lines of one nightly run, in the order printed: [step, company]. */
async function night(companiesAtOnce: number): Promise<[string, string][]> {
  const sandbox = await startSandbox({
    port: 0,
    logger: silentLogger(),
    start: new Date(),
    latencyMs: 20,
    bureau: { count: COMPANIES, accountsPerOrganisation: 1 },
  });
  try {
    return await withTempDir(async (dir) => {
      const config = await writeBureau(dir, {
        companies: COMPANIES,
        lines: LINES,
        urls: sandbox.urls,
        concurrency: 4,
        companiesAtOnce,
      });
      const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
      await runSettle(['--config', config, 'db', 'migrate'], { cwd: dir, env });
      await new Promise((r) => setTimeout(r, 1100)); // intake.stableFor
      const run = await runSettle(['--config', config, 'run', 'nightly'], { cwd: dir, env });
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      expect([0, 1], shown).toContain(run.code);
      const paid = (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as {
        payments: { paymentLines: { endToEndIdentification: string }[] }[];
      };
      const ids = paid.payments.flatMap((p) => p.paymentLines.map((l) => l.endToEndIdentification));
      expect(ids.length, shown).toBe(COMPANIES * LINES);
      expect(new Set(ids).size).toBe(ids.length);
      return [...run.stdout.matchAll(/^[✓!✗-] (\S+) +(c\d{4}): /gm)].map((m) => [m[1]!, m[2]!] as [string, string]);
    });
  } finally {
    await sandbox.close();
  }
}

/** Each company's steps in the order printed. */
function stepsOf(lines: [string, string][]): Map<string, string[]> {
  const by = new Map<string, string[]>();
  for (const [step, company] of lines) by.set(company, [...(by.get(company) ?? []), step]);
  return by;
}

/** How many times the printed lines switch from one company to another. */
const switches = (lines: [string, string][]) => lines.filter((l, i) => i > 0 && l[1] !== lines[i - 1]![1]).length;

describe('schedule.companiesAtOnce', () => {
  it('with 4, works on the companies at once, each chain in order; with 1, one company after another', async () => {
    const together = await night(4);
    const alone = await night(1);
    for (const lines of [together, alone]) {
      const by = stepsOf(lines);
      expect([...by.keys()].sort()).toEqual(Array.from({ length: COMPANIES }, (_, i) => companyId(i)));
      for (const steps of by.values()) expect(steps).toEqual(STEPS);
    }
    expect(switches(alone)).toBe(COMPANIES - 1);
    expect(switches(together)).toBeGreaterThan(COMPANIES - 1);
  }, 240_000);
});
