// `settle run nightly --dry-run`: the real chain against the real database, folders and bank,
// leaving all three exactly as they were, and saying what a real run would do.
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp } from '../../src/main/app.js';
import { openConfiguredDatabase } from '../../src/main/database.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { runNightlyDryRun, type DryRunResult } from '../../src/main/dry-run.js';
import { runNightly, type StepResult } from '../../jobs/nightly/nightly.js';
import { nightlyDeps } from '../../src/main/nightly-deps.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { companyId, writeBureau } from '../support/bureau.js';
import { makeTempDir, withTempDir } from '../support/tmp.js';

/** A dry run over every configured company, none of whose steps fails. */
async function dryRunWithoutFailures(
  config: Readonly<Config>,
  clock: Clock,
  onStep?: (step: StepResult) => void,
): Promise<DryRunResult> {
  const result = await runNightlyDryRun(config, silentLogger(), clock, config.companies, onStep ? { onStep } : {});
  expect(result.nightly.steps.filter((s) => !s.ok)).toEqual([]);
  return result;
}

describe('the nightly dry run', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sandbox: RunningSandbox;
  let config: Readonly<Config>;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    sandbox = await startSandbox({ port: 0, logger: silentLogger() });
    config = loadConfig({
      file: await writeDemoConfig(dir, sandbox),
      cwd: dir,
      env: { SETTLE_CLIENT_SECRET: SEED.clientSecret },
    });
    const db = await openConfiguredDatabase(config);
    await db.migrate();
    await db.close();
    await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
    for (const name of ['acme-payments.csv', 'acme-corrections.csv'])
      await copyFile(join('samples/erp', name), join(dir, 'acme', 'inbox', name));
  });
  afterEach(async () => {
    await sandbox.close();
    await cleanup();
  });

  const bankPayments = async () =>
    (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as { payments?: unknown[] } | unknown[];
  const count = (body: Awaited<ReturnType<typeof bankPayments>>) =>
    Array.isArray(body) ? body.length : (body.payments?.length ?? 0);

  it('says what would happen and changes nothing at the bank, in the folders or in the database', async () => {
    const { actions } = await dryRunWithoutFailures(config, sandbox.sandbox.clock);
    const lines = actions.map((a) => a.what);
    expect(lines).toContain('would move inbox/acme-payments.csv → archive/2026-01-05/acme-payments.csv');
    expect(lines).toContain('would move inbox/acme-corrections.csv → error/acme-corrections.csv');
    expect(lines.filter((l) => l.startsWith('would send a bulk of'))).toHaveLength(2);
    expect(lines.some((l) => l.startsWith('would create a signing basket'))).toBe(true);
    expect(lines.some((l) => /^would write reports\/reconciliation-acme-.*\.html/.test(l))).toBe(true);

    expect((await readdir(join(dir, 'acme', 'inbox'))).sort()).toEqual(['acme-corrections.csv', 'acme-payments.csv']);
    expect(await readdir(join(dir, 'acme'))).toEqual(['inbox']);
    expect(count(await bankPayments())).toBe(0);

    // The database is as it was: a real run afterwards does all the work, once.
    const app = await createApp(config, silentLogger(), sandbox.sandbox.clock);
    try {
      expect(await app.store.files.listFiles({ company: 'acme' })).toEqual([]);
      const real = await runNightly(nightlyDeps(app), config.companies, { runId: 'real' });
      expect(real.steps.filter((s) => !s.ok)).toEqual([]);
      expect(real.picked.map((p) => p.outcome).sort()).toEqual(['accepted', 'rejected']);
    } finally {
      await app.close();
    }
    expect(count(await bankPayments())).toBe(2);
  });
});

// Its steps share one transaction on one connection, so it works the companies one after another
// whatever schedule.companiesAtOnce says: chains at once would interleave their savepoints.
describe('the nightly dry run of a bureau', () => {
  const COMPANIES = 4;

  it('says what each company would do, fails no step, and leaves the database empty', async () => {
    const sandbox = await startSandbox({
      port: 0,
      logger: silentLogger(),
      start: new Date(),
      bureau: { count: COMPANIES, accountsPerOrganisation: 1 },
    });
    try {
      await withTempDir(async (dir) => {
        const file = await writeBureau(dir, {
          companies: COMPANIES,
          lines: 2,
          urls: sandbox.urls,
          concurrency: 4,
          companiesAtOnce: 4,
        });
        const config = loadConfig({ file, cwd: dir, env: { SETTLE_CLIENT_SECRET: SEED.clientSecret } });
        const db = await openConfiguredDatabase(config);
        try {
          await db.migrate();
          await new Promise((r) => setTimeout(r, 1100)); // intake.stableFor
          const order: string[] = [];
          const { actions } = await dryRunWithoutFailures(config, sandbox.sandbox.clock, (s) => {
            if (order.at(-1) !== s.company) order.push(s.company ?? '');
          });
          // Each company's steps together: one company after another.
          expect(order).toEqual(Array.from({ length: COMPANIES }, (_, i) => companyId(i)));
          expect(actions.filter((a) => a.what.startsWith('would send a bulk of'))).toHaveLength(COMPANIES);
          const picked = actions.filter((a) => a.what.startsWith('would move inbox/')).map((a) => a.company);
          expect(picked.sort()).toEqual(Array.from({ length: COMPANIES }, (_, i) => companyId(i)));
          expect(await db.knex('payment_files').count({ n: '*' })).toEqual([{ n: 0n }]);
        } finally {
          await db.close();
        }
      });
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});
