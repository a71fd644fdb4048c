// Part of the repository contract (repository-contract.ts): what a bureau's health reads for all
// its companies at once — the finished runs by job and outcome (/metrics), the companies with a
// usable consent and with a usable account (onboarded or not). Called inside the contract's
// describe block; its companies and jobs are its own, so other cases' rows do not count.
import { expect, it } from 'vitest';
import type { Database, Row } from '../../src/store/index.js';
import { captureQueries, isSqlite } from '../support/query-plan.js';
import type { ContractContext } from './contract-approval-reporting.js';

const DAY = 86_400_000;

export function bureauCases(ctx: () => ContractContext & { db: Database }): void {
  it('counts finished runs by job and outcome with the last finish, whoever ran them', async () => {
    const { store, clock } = ctx();
    const ok = await store.jobRuns.start('bureau-night', 'b-1', 'cli host:1');
    clock.advance(1000);
    await store.jobRuns.finish(ok.id, 'ok');
    const okAt = clock.now();
    for (const n of [2, 3]) {
      const failed = await store.jobRuns.start('bureau-night', `b-${n}`);
      clock.advance(1000);
      await store.jobRuns.finish(failed.id, 'failed');
    }
    await store.jobRuns.start('bureau-night', 'b-4'); // running: not finished, not counted
    const mine = (await store.jobRuns.finishedByOutcome()).filter((r) => r.job === 'bureau-night');
    expect(mine).toEqual([
      { job: 'bureau-night', outcome: 'failed', runs: 2, lastFinishedAt: clock.now() },
      { job: 'bureau-night', outcome: 'ok', runs: 1, lastFinishedAt: okAt },
    ]);
  });

  it('counts them from the outcome index alone, never reading the runs themselves (0640)', async () => {
    const { store, db } = ctx();
    const queries = captureQueries(db);
    await store.jobRuns.finishedByOutcome();
    const [query] = queries;
    if (isSqlite(db)) {
      const plan: { detail: string }[] = await db.knex.raw(
        `explain query plan ${query!.sql}`,
        query!.bindings as never,
      );
      expect(plan.map((p) => p.detail).join('; ')).toContain('COVERING INDEX job_runs_outcome_ix');
      return;
    }
    const [plan] = (await db.knex.raw(`explain ${query!.sql}`, query!.bindings as never)) as [Row[]];
    expect(plan[0]).toMatchObject({ key: 'job_runs_outcome_ix' });
    expect(String(plan[0]?.Extra)).toContain('Using index');
  });

  it('names the companies with a usable consent and those with a usable account', async () => {
    const { store, clock, db } = ctx();
    const now = clock.now();
    const consent = (company: string, status: string, expiresAt?: Date) =>
      store.consents.record({
        company,
        bankId: 'testbank',
        consentId: `onb-${company}`,
        status,
        statusAt: now,
        source: 'bank',
        ...(expiresAt ? { expiresAt } : {}),
      });
    await consent('onb-live', 'Authorized', new Date(now.getTime() + DAY));
    await consent('onb-open', 'Valid');
    await consent('onb-expired', 'Authorized', new Date(now.getTime() - DAY));
    await consent('onb-waiting', 'AwaitingApproval');
    const live = await store.consents.liveByCompany(now);
    expect([...live].filter(([c]) => c.startsWith('onb-'))).toEqual([
      ['onb-live', 1],
      ['onb-open', 1],
    ]);
    expect([...(await store.consents.liveByCompany(now, 'onb-expired'))]).toEqual([]);

    await store.bankAccounts.replace('onb-listed', [{ accountId: 'onb-a1', status: 'enabled' }], now);
    await store.bankAccounts.replace('onb-disabled', [{ accountId: 'onb-a2', status: 'disabled' }], now);
    const row = (id: string, company: string, status: string | null) => ({
      id,
      company,
      account_status: status,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    await db.knex('accounts').insert([row('onb-a3', 'onb-fetched', null), row('onb-a4', 'onb-blocked', 'disabled')]);
    const usable = [...(await store.accountStatus.companiesWithUsableAccount())].filter((c) => c.startsWith('onb-'));
    expect(usable.sort()).toEqual(['onb-fetched', 'onb-listed']);
    expect([...(await store.accountStatus.companiesWithUsableAccount('onb-blocked'))]).toEqual([]);
    expect([...(await store.accountStatus.companiesWithUsableAccount('onb-listed'))]).toEqual(['onb-listed']);
  });
}
