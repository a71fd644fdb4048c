// A first fetch whose write committed but whose continuity check did not (the process was killed
// between the two, as the nightly chaos campaign does, or the check's write failed) must not cost
// the days of its window: the next fetch checks them, and the export delivers their lines. Once,
// the next fetch started at the new watermark minus the overlap, so every earlier day of the
// first fetch's 31 was never checked and its lines were never exported.
// The sandbox bank over real HTTP and a SQLite file; only the check's failure is injected.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { runFetchStatements, type FetchStatementsDeps } from '../../../jobs/statements/fetch.js';
import type { StatementDayRepository } from '../../../src/store/statement-days.js';
import { StatementRepository } from '../../../src/store/statements.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';

describe('a first fetch interrupted after its write', () => {
  let h: StatementHarness;
  beforeEach(async () => {
    h = await startStatementHarness({ statements: { formats: ['camt.053.001.02'] } });
  });
  afterEach(async () => {
    await h.close();
  });

  /** The fetch's dependencies with the continuity check's write failing, as if killed there. */
  function checkFails(deps: FetchStatementsDeps): FetchStatementsDeps {
    const days = Object.create(deps.days) as StatementDayRepository;
    days.recordMany = () => Promise.reject(new Error('killed before the check was written'));
    return { ...deps, days };
  }

  const exportedRefs = async (iban: string): Promise<string[]> => {
    const folder = join(h.root, 'statements');
    const refs: string[] = [];
    for (const name of (await readdir(folder)).filter((n) => n.includes(iban)).sort()) {
      const xml = await readFile(join(folder, name), 'utf8');
      for (const entry of xml.split('<Ntry>').slice(1)) refs.push(/<AcctSvcrRef>([^<]*)</.exec(entry)![1]!);
    }
    return refs.sort();
  };

  it('leaves its window to the next fetch, which checks every day of it; the export then has every line', async () => {
    const first = await runFetchStatements(checkFails(h.fetchDeps()), [h.company]);
    expect(first.map((r) => [r.accountId, r.outcome, r.from])).toEqual([
      [SEED.operatingAccountId, 'failed', '2025-12-05'],
      [SEED.approvalAccountId, 'failed', '2025-12-05'],
    ]);
    // The write committed: the lines and the watermark are stored, no day is checked.
    const statements = new StatementRepository(h.db, h.clock);
    expect((await statements.listTransactions(SEED.operatingAccountId)).length).toBe(6);
    expect(await statements.fetchedTo(SEED.operatingAccountId)).toBeInstanceOf(Date);

    h.sandbox.advance(3_600_000);
    const second = await runFetchStatements(h.fetchDeps(), [h.company]);
    for (const r of second) {
      expect(r.outcome).toBe('fetched');
      // The first fetch's window, not the watermark minus the 3-day overlap (2026-01-02).
      expect(r.from).toBe('2025-12-05');
      expect(r.days.map((d) => d.day)[0]).toBe('2025-12-05');
      expect(r.days).toHaveLength(31);
    }

    await runExportStatements(h.exportDeps(), [h.company]);
    const booked = async (accountId: string) =>
      (await statements.listTransactions(accountId, { status: 'booked' })).map((t) => t.entryReference).sort();
    const operating = await booked(SEED.operatingAccountId);
    expect(operating).toContain('SBX000000001'); // booked 2025-12-31, before the overlap
    expect(await exportedRefs(SEED.operatingIban)).toEqual(operating);
    expect(await exportedRefs(SEED.approvalIban)).toEqual(await booked(SEED.approvalAccountId));
  });

  it('interrupted twice on different days, the next fetch still reaches back to the first one’s window', async () => {
    await runFetchStatements(checkFails(h.fetchDeps()), [h.company]);
    h.sandbox.advance(2 * 86_400_000);
    const again = await runFetchStatements(checkFails(h.fetchDeps()), [h.company]);
    expect(again.map((r) => [r.outcome, r.from])).toEqual([
      ['failed', '2025-12-05'],
      ['failed', '2025-12-05'],
    ]);
    // The watermark is now the second fetch's (2026-01-07, 31 days after 2025-12-07): the first
    // fetch's window is told from the balances it stored, the day before it.
    h.sandbox.advance(3_600_000);
    const third = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(third.map((r) => [r.outcome, r.from, r.days[0]?.day])).toEqual([
      ['fetched', '2025-12-05', '2025-12-05'],
      ['fetched', '2025-12-05', '2025-12-05'],
    ]);
  });
});
