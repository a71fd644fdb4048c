// Statements are claimed per account: a process that finds one account of a company claimed by
// another fetches and exports the company's other accounts and leaves that one alone, so
// instances share even one company's accounts and no account is done twice at once.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { runFetchStatements } from '../../../jobs/statements/fetch.js';
import { LeaseRepository, UnitClaims, unitName } from '../../../src/store/index.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';

describe('statements claimed per account', () => {
  let h: StatementHarness;
  beforeEach(async () => {
    h = await startStatementHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  const claims = (holder: string) =>
    new UnitClaims({ leases: new LeaseRepository(h.db, h.clock), holder, ttlMs: 60_000 });

  it('skips the account another process has claimed and does the others', async () => {
    const leases = new LeaseRepository(h.db, h.clock);
    const held = { job: 'fetch', company: h.company.id, account: SEED.approvalAccountId };
    expect(await leases.acquire(unitName(held), 'other-host:1:run', 60_000)).toBeTruthy();
    const units = claims('this-host:2:run');
    const fetched = await runFetchStatements({ ...h.fetchDeps(), units }, [h.company]);
    expect(fetched.map((f) => f.accountId)).toEqual([SEED.operatingAccountId]);
    expect(units.claimedElsewhere.map((u) => [u.unit.account, u.holder])).toEqual([
      [SEED.approvalAccountId, 'other-host:1:run'],
    ]);
    expect(units.done).toBe(1);

    await leases.acquire(
      unitName({ job: 'export', company: h.company.id, account: SEED.operatingAccountId }),
      'other-host:1:run',
      60_000,
    );
    const exported = await runExportStatements({ ...h.exportDeps(), units }, [h.company]);
    expect(new Set(exported.files.map((f) => f.accountId))).toEqual(new Set()); // approval account: not fetched yet
    const files = await readdir(join(h.root, 'statements')).catch(() => []);
    expect(files.filter((n) => n.includes(SEED.operatingIban))).toEqual([]);
    units.close();
  });

  it('once the holder lets go, the next run does the account it skipped, and nothing twice', async () => {
    const leases = new LeaseRepository(h.db, h.clock);
    const held = unitName({ job: 'fetch', company: h.company.id, account: SEED.approvalAccountId });
    await leases.acquire(held, 'other-host:1:run', 60_000);
    const first = claims('a:1:run');
    await runFetchStatements({ ...h.fetchDeps(), units: first }, [h.company]);
    first.close();
    await leases.release(held, 'other-host:1:run');
    const second = claims('a:1:run2');
    const fetched = await runFetchStatements({ ...h.fetchDeps(), units: second }, [h.company]);
    second.close();
    expect(fetched.map((f) => [f.accountId, f.inserted])).toEqual([
      [SEED.operatingAccountId, 0],
      [SEED.approvalAccountId, fetched[1]!.inserted],
    ]);
    expect(fetched[1]!.inserted).toBeGreaterThan(0);
    const exported = await runExportStatements({ ...h.exportDeps(), units: claims('a:1:run3') }, [h.company]);
    const perAccount = new Set(exported.files.map((f) => `${f.accountId} ${f.format} ${f.period}`));
    expect(perAccount.size).toBe(exported.files.length);
    expect(new Set(exported.files.map((f) => f.accountId))).toEqual(
      new Set([SEED.operatingAccountId, SEED.approvalAccountId]),
    );
  });
});
