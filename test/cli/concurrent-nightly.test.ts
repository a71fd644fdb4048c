// Several `settle run nightly` started at the same moment on one configuration (a timer firing
// while an operator runs it by hand, or two instances sharing a night) must not fail: each claims
// the units of work it can, names the ones another process has claimed, and every file ends exactly
// once in archive/ or error/.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle, type CliResult } from '../support/cli.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

const SAMPLES = ['acme-payments.csv', 'acme-suppliers.xml', 'acme-corrections.csv'];
const useMariaDb = await mariaDbForTests();

/** A Wednesday two to three weeks ahead, clear of the Christmas and Easter holidays. */
function futureBusinessDay(): string {
  const day = new Date(Date.now() + 14 * 86_400_000);
  while (day.getUTCDay() !== 3 || [11, 0, 3].includes(day.getUTCMonth())) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) out.push(entry.name);
  }
  return out;
}

async function threeAtOnce(env: NodeJS.ProcessEnv): Promise<void> {
  // The CLI runs on the real clock: so does the sandbox here.
  const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
  await withTempDir(async (dir) => {
    const config = await writeDemoConfig(dir, sandbox);
    const inbox = join(dir, 'acme', 'inbox');
    await mkdir(inbox, { recursive: true });
    // The samples pay on 2026-01-07; the CLI runs on the real clock, so they pay a future day here.
    for (const name of SAMPLES) {
      const text = await readFile(join('samples/erp', name), 'utf8');
      await writeFile(join(inbox, name), text.replaceAll('2026-01-07', futureBusinessDay()));
    }
    const runs: CliResult[] = await Promise.all(
      [1, 2, 3].map(() =>
        runSettle(['--config', config, 'run', 'nightly'], {
          cwd: dir,
          env: { SETTLE_CLIENT_SECRET: SEED.clientSecret, ...env },
        }),
      ),
    );
    for (const run of runs) {
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      // 1: the corrections file is rejected on purpose (a person must look); 4: all claimed elsewhere.
      expect([0, 1, 4], shown).toContain(run.code);
      expect(run.stderr, shown).not.toMatch(/ERR_INTERNAL|database is locked|ENOENT/);
      expect(run.stdout, shown).not.toMatch(/✗/);
      if (run.code === 4) {
        expect(run.stdout, shown).toMatch(/skipped {2}nightly acme: claimed by \S+ since \d{4}-/);
        expect(run.stderr, shown).toMatch(/^settle: ERR_ALREADY_RUNNING: /);
      }
    }
    expect(runs.filter((r) => r.code !== 4).length).toBeGreaterThanOrEqual(1);
    const archived = await filesUnder(join(dir, 'acme', 'archive'));
    const errors = (await filesUnder(join(dir, 'acme', 'error'))).filter((n) => !/\.errors\.(txt|json|html)$/.test(n));
    // What the three said, so a failure here shows why no process handled a file.
    const said = runs.map((r) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`).join('\n---\n');
    expect([...archived, ...errors].sort(), said).toEqual([...SAMPLES].sort());
    expect(errors).toEqual(['acme-corrections.csv']);
    expect(await readdir(inbox)).toEqual([]);
    // Each accepted payment reached the bank once.
    const ids = (await sandboxPayments(sandbox)).map((p) => p.endToEndId);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
  }).finally(() => sandbox.close());
}

async function sandboxPayments(sandbox: RunningSandbox): Promise<{ endToEndId: string }[]> {
  const response = await fetch(`${sandbox.urls.controlUrl}/payments`);
  const body = (await response.json()) as { payments: { paymentLines: { endToEndIdentification: string }[] }[] };
  return body.payments.flatMap((p) => p.paymentLines).map((l) => ({ endToEndId: l.endToEndIdentification }));
}

describe('three settle run nightly at the same moment', () => {
  it('on SQLite: every process exits 0, 1 (findings) or 4 (already running) and every file is handled once', async () => {
    await threeAtOnce({});
  }, 120_000);

  it.runIf(useMariaDb)(
    'on MariaDB: every process exits 0, 1 (findings) or 4 (already running) and every file is handled once',
    async () => {
      const db = await createThrowawayDatabase();
      try {
        await threeAtOnce({ SETTLE_DATABASE_URL: db.url });
      } finally {
        await db.drop();
      }
    },
    120_000,
  );
});
