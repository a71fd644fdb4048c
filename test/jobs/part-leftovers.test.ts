// Regression (found by the chaos run, docs/testing.md#chaos-run): a run SIGKILLed between
// writing reports/NAME.part and renaming it left the .part in the outbox for good, because the
// next reconciliation or status file has another name (it carries a time). The jobs that write
// such names now remove stale NAME.part files in their folder first.
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApprove } from '../../jobs/approve/approve.js';
import { removeStaleParts, STALE_PART_MS } from '../../jobs/inbox/part-leftovers.js';
import type { PaymentJobDeps } from '../../jobs/payments/deps.js';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { runReconcile } from '../../jobs/reconcile/reconcile.js';
import { runStatusReport } from '../../jobs/status/report.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../src/domain/reconcile/index.js';
import { silentLogger } from '../../src/log/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { LocalFileStore } from '../../src/transport/index.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

describe('half-written files left by an interrupted run', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let store: Store;
  let clock: ManualClock;
  let company: CompanyConfig;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    clock = new ManualClock(new Date().toISOString());
    db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    await db.migrate();
    store = createStore(db, clock);
    company = configSchema.parse({
      companies: [
        {
          id: 'acme',
          name: 'ACME AS',
          organisationNumber: '999999999',
          root: join(dir, 'acme'),
          folders: { approvals: 'approvals' },
        },
      ],
    }).companies[0]!;
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  /** A NAME.part in `folder`, last written `ageMs` ago (real file time). */
  async function leftover(folder: string, name: string, ageMs: number): Promise<void> {
    await mkdir(join(company.root, folder), { recursive: true });
    const path = join(company.root, folder, name);
    await writeFile(path, 'half a fi');
    const when = new Date(Date.now() - ageMs);
    await utimes(path, when, when);
  }

  it('removes stale .part files only: fresh ones (a write in flight) and finished files stay; a missing folder is fine', async () => {
    const files = new LocalFileStore(company.root);
    await leftover('reports', 'reconciliation-acme-2026-01-06-20260106T070002.csv.part', STALE_PART_MS + 60_000);
    await leftover('reports', 'in-flight.csv.part', 5_000);
    await leftover('reports', 'reconciliation-acme-2026-01-06-20260106T070002.html', STALE_PART_MS * 24);
    expect(await removeStaleParts(files, 'reports', clock, silentLogger())).toEqual([
      'reconciliation-acme-2026-01-06-20260106T070002.csv.part',
    ]);
    expect((await readdir(join(company.root, 'reports'))).sort()).toEqual([
      'in-flight.csv.part',
      'reconciliation-acme-2026-01-06-20260106T070002.html',
    ]);
    expect(await removeStaleParts(files, 'no-such-folder', clock, silentLogger())).toEqual([]);
  });

  it('the reconcile job clears its reports folder of a report a killed run left half-written', async () => {
    await leftover('reports', 'reconciliation-acme-2026-01-06-20260106T070002.csv.part', 2 * STALE_PART_MS);
    const files = new LocalFileStore(company.root);
    const [result] = await runReconcile(
      {
        store,
        clock,
        logger: silentLogger(),
        timeZone: 'Europe/Oslo',
        runId: 'run-1',
        config: DEFAULT_RECONCILE_CONFIG,
        lookBackDays: 31,
        fileStore: () => Promise.resolve(files),
      },
      [company],
    );
    const left = await readdir(join(company.root, 'reports'));
    expect(left.filter((n) => n.endsWith('.part'))).toEqual([]);
    expect(left.sort()).toEqual([result!.csv, result!.html].map((p) => p.split('/').pop()).sort());
  });

  it('the status report job clears its status folder of a status file a killed run left half-written', async () => {
    await leftover('status', 'pay-3.csv.20260105T130002089Z.pain.002.001.03.xml.part', 2 * STALE_PART_MS);
    const files = new LocalFileStore(company.root);
    expect(
      await runStatusReport(
        { store, clock, logger: silentLogger(), timeZone: 'Europe/Oslo', fileStore: () => Promise.resolve(files) },
        [company],
      ),
    ).toEqual([]);
    expect(await readdir(join(company.root, 'status'))).toEqual([]);
  });

  // Found by the chaos run: a notice write killed before its rename is written again at once, when
  // its leftover is still too young to be stale; later runs write no notice for that basket.
  it('the approve job clears the approvers folder of a notice a killed run left half-written, with no basket to notify', async () => {
    await leftover('approvals', 'approval-2026-12-02-01a20fa4.txt.d6c6d3.part', 2 * STALE_PART_MS);
    await leftover('approvals', 'approval-2026-12-03-02b31fb5.txt.e7e7e4.part', 5_000);
    const files = new LocalFileStore(company.root);
    const deps = {
      store,
      clock,
      logger: silentLogger(),
      timeZone: 'Europe/Oslo',
      holder: 'test',
      runId: 'run-1',
      idempotencyRetentionMs: 86_400_000,
      fileStore: () => Promise.resolve(files),
    } as unknown as PaymentJobDeps; // no bank: with nothing waiting, the job asks it nothing
    expect((await runApprove(deps, [company])).baskets).toEqual([]);
    expect(await readdir(join(company.root, 'approvals'))).toEqual(['approval-2026-12-03-02b31fb5.txt.e7e7e4.part']);
  });

  it("the pickup job clears the error folder of a refused file's report a killed run left half-written", async () => {
    const world = await openPickupWorld(dir, clock);
    try {
      const root = world.company.root; // the same acme folder the leftovers go to
      await leftover('error', 'bad.csv.errors.json.b554a8.part', 2 * STALE_PART_MS);
      await leftover('error', 'in-flight.csv.errors.txt.c6f296.part', 5_000);
      expect(await runPickup(world.deps, [world.company])).toEqual([]);
      expect(await readdir(join(root, 'error'))).toEqual(['in-flight.csv.errors.txt.c6f296.part']);
    } finally {
      await world.db.close();
    }
  });
});
