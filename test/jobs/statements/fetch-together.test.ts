// The fetch writes what it read of a company's accounts together: one transaction and a statement
// per kind for all of them, with one watermark, under every account's claim. A failed read fails
// its account alone; a failed write, the accounts written with it, and none of them is written.
// The sandbox bank over real HTTP and a SQLite file; only the failures are injected.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFetchStatements, type FetchStatementsDeps } from '../../../jobs/statements/fetch.js';
import type { BankClient } from '../../../src/bank/index.js';
import { BankError } from '../../../src/bank/index.js';
import type { FetchedAccount, StatementRepository } from '../../../src/store/index.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';

const ENABLED = [SEED.operatingAccountId, SEED.approvalAccountId, SEED.nordbankAccountId];

describe('the fetch writes a company’s accounts together', () => {
  let h: StatementHarness;
  beforeEach(async () => {
    h = await startStatementHarness({ secondBank: true });
  });
  afterEach(async () => {
    await h.close();
  });

  /** The real repository, with each write of fetched accounts recorded (and failed once when asked). */
  function watched(
    deps: FetchStatementsDeps,
    failFirst?: Error,
  ): { statements: StatementRepository; writes: string[][] } {
    const real = deps.statements;
    const writes: string[][] = [];
    let fail = failFirst;
    const statements = Object.create(real) as StatementRepository;
    statements.storeFetchedAll = (fetched: readonly FetchedAccount[]) => {
      writes.push(fetched.map((f) => f.account.id));
      if (fail === undefined) return real.storeFetchedAll(fetched);
      const error = fail;
      fail = undefined;
      return Promise.reject(error);
    };
    return { statements, writes };
  }

  const stored = (accountId: string) => h.fetchDeps().statements.listTransactions(accountId);

  it('in one write with one watermark, and checks each one’s days', async () => {
    const deps = h.fetchDeps();
    const { statements, writes } = watched(deps);
    const results = await runFetchStatements({ ...deps, statements }, [h.company]);
    expect(results.map((r) => [r.accountId, r.outcome])).toEqual([
      ...ENABLED.map((id) => [id, 'fetched']),
      [SEED.pendingAccountId, 'not-yet-enabled'],
    ]);
    expect(writes).toEqual([ENABLED]);
    for (const r of results.slice(0, 3)) {
      expect(r.inserted).toBeGreaterThan(0);
      expect(r.days.length).toBeGreaterThan(0);
      expect((await stored(r.accountId)).length).toBe(r.inserted);
    }
    const watermarks = await Promise.all(ENABLED.map((id) => deps.statements.fetchedTo(id)));
    expect(new Set(watermarks.map((w) => w?.toISOString())).size).toBe(1);
    expect(watermarks[0]).toBeInstanceOf(Date);
  });

  it('in several writes once the transactions read pass the bound', async () => {
    const deps = { ...h.fetchDeps(), writeAfterTransactions: 1 };
    const { statements, writes } = watched(deps);
    const results = await runFetchStatements({ ...deps, statements }, [h.company]);
    expect(writes).toEqual(ENABLED.map((id) => [id]));
    expect(results.slice(0, 3).every((r) => r.outcome === 'fetched' && r.inserted > 0)).toBe(true);
  });

  it('a write that fails fails every account in it and writes none of them; the next run writes them all', async () => {
    const deps = h.fetchDeps();
    const { statements } = watched(deps, new Error('the database went away'));
    const failed = await runFetchStatements({ ...deps, statements }, [h.company]);
    expect(failed.slice(0, 3).map((r) => [r.outcome, r.error?.message])).toEqual(
      ENABLED.map(() => ['failed', 'the database went away']),
    );
    for (const id of ENABLED) {
      expect(await stored(id)).toEqual([]);
      expect(await deps.statements.fetchedTo(id)).toBeUndefined();
    }
    const again = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(again.slice(0, 3).map((r) => r.outcome)).toEqual(['fetched', 'fetched', 'fetched']);
    expect(again.slice(0, 3).every((r) => r.inserted > 0)).toBe(true);
  });

  it('a read that fails fails its account alone; the others are written together', async () => {
    const deps = h.fetchDeps();
    const bank = Object.create(deps.bank) as BankClient;
    // The approval account's balances fail at the first page; everything else is the bank's.
    const unavailable: AsyncIterable<never> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new BankError('ERR_BANK_UNAVAILABLE', 'the bank answered 503 for the balances')),
      }),
    };
    bank.listBalances = (context, accountId, query) =>
      accountId === SEED.approvalAccountId ? unavailable : deps.bank.listBalances(context, accountId, query);
    const { statements, writes } = watched(deps);
    const results = await runFetchStatements({ ...deps, bank, statements }, [h.company]);
    expect(results.slice(0, 3).map((r) => [r.accountId, r.outcome])).toEqual([
      [SEED.operatingAccountId, 'fetched'],
      [SEED.approvalAccountId, 'failed'],
      [SEED.nordbankAccountId, 'fetched'],
    ]);
    expect(results[1]!.error?.code).toBe('ERR_BANK_UNAVAILABLE');
    expect(writes).toEqual([[SEED.operatingAccountId, SEED.nordbankAccountId]]);
    expect(await stored(SEED.approvalAccountId)).toEqual([]);
    expect((await stored(SEED.nordbankAccountId)).length).toBe(results[2]!.inserted);
  });
});
