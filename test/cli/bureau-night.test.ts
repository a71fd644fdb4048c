// Two `settle run nightly` processes share a bureau's night: both do some of the companies,
// each company's chain runs once, no payment reaches the bank twice and no statement line is
// lost or doubled in the exported files — on SQLite and on MariaDB.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { companyId, statementLines, writeBureau } from '../support/bureau.js';
import { runSettle } from '../support/cli.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

const useMariaDb = await mariaDbForTests();
const COMPANIES = 8;
const LINES = 3;

async function twoInstances(env: NodeJS.ProcessEnv): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    logger: silentLogger(),
    start: new Date(),
    bureau: { count: COMPANIES, accountsPerOrganisation: 3 },
  });
  // Each instance reads the bank's consent list (every company's consents) once for its run, not once per company.
  let consentListings = 0;
  sandbox.app.server.on('request', (req: { method?: string; url?: string }) => {
    if (req.method === 'GET' && /^\/api\/consents(\?(?!.*cursor=)|$)/.test(req.url ?? '')) consentListings++;
  });
  await withTempDir(async (dir) => {
    const config = await writeBureau(dir, { companies: COMPANIES, lines: LINES, urls: sandbox.urls, concurrency: 4 });
    const settleEnv = { SETTLE_CLIENT_SECRET: SEED.clientSecret, ...env };
    await runSettle(['--config', config, 'db', 'migrate'], { cwd: dir, env: settleEnv });
    await new Promise((r) => setTimeout(r, 1100)); // intake.stableFor
    const runs = await Promise.all(
      [1, 2].map(() => runSettle(['--config', config, 'run', 'nightly'], { cwd: dir, env: settleEnv })),
    );
    const chains = runs.map((run) => {
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      expect([0, 1], shown).toContain(run.code);
      expect(run.stderr, shown).not.toMatch(/ERR_INTERNAL|database is locked/);
      return [...run.stdout.matchAll(/^✓ reconcile +(c\d{4}):/gm)].map((m) => m[1]!);
    });
    // Both did some work, and together every company's chain ran to its end once.
    expect(
      chains.every((c) => c.length > 0),
      JSON.stringify(chains),
    ).toBe(true);
    expect(chains.flat().sort()).toEqual(Array.from({ length: COMPANIES }, (_, i) => companyId(i)));
    const paid = (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as {
      payments: { paymentLines: { endToEndIdentification: string }[] }[];
    };
    const ids = paid.payments.flatMap((p) => p.paymentLines.map((l) => l.endToEndIdentification));
    expect(ids.length).toBe(COMPANIES * LINES);
    expect(new Set(ids).size).toBe(ids.length);
    // Two booked days of history per account, each exported once.
    expect(await statementLines(dir, COMPANIES)).toEqual({ lines: COMPANIES * 3 * 2, doubled: 0 });
    expect(consentListings).toBe(2);
  }).finally(() => sandbox.close());
}

describe('two settle run nightly share a bureau night', () => {
  it('on SQLite: both work, every chain runs once, nothing twice, no statement line lost or doubled', async () => {
    await twoInstances({});
  }, 240_000);

  it.runIf(useMariaDb)(
    'on MariaDB: the same',
    async () => {
      const db = await createThrowawayDatabase();
      try {
        await twoInstances({ SETTLE_DATABASE_URL: db.url });
      } finally {
        await db.drop();
      }
    },
    240_000,
  );
});
