// The export reads a company's accounts together: what each format delivered and numbered, the
// accounts' checked days, bookings and legal numbers, one read each for a group of accounts, not
// one each an account. What it writes does not depend on how the accounts were grouped.
// The sandbox bank over real HTTP and a SQLite file; the reads are counted, not replaced.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExportStatements, type ExportResult } from '../../../jobs/export-statements.js';
import { runFetchStatements } from '../../../jobs/fetch-statements.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';

const ENABLED = [SEED.operatingAccountId, SEED.approvalAccountId, SEED.nordbankAccountId];

/** What the export wrote, per account: each file's period, numbers and entry count. */
function written(result: ExportResult): string[] {
  return result.files
    .map(
      (f) => `${f.accountId} ${f.format} ${f.period} #${f.sequenceNumber} legal ${f.legalSequenceNumber} ${f.entries}`,
    )
    .sort();
}

describe('the export reads a company’s accounts together', () => {
  let h: StatementHarness;
  beforeEach(async () => {
    h = await startStatementHarness({ secondBank: true });
    await runFetchStatements(h.fetchDeps(), [h.company]);
  });
  afterEach(async () => {
    await h.close();
  });

  it('in one read of each kind for all of them, and writes each account its own files and numbers', async () => {
    const deps = h.exportDeps();
    const reads = {
      exported: vi.spyOn(deps.exports, 'exportedPeriodsOf'),
      numbered: vi.spyOn(deps.exports, 'numberedPeriodsOf'),
      days: vi.spyOn(deps.days, 'listOf'),
      booked: vi.spyOn(deps.statements, 'bookedByDayOf'),
      legal: vi.spyOn(deps.legalSequence, 'findAllOf'),
    };
    const result = await runExportStatements(deps, [h.company]);
    const formats = new Set(result.files.map((f) => f.format)).size;
    expect(formats).toBeGreaterThan(0);
    expect(new Set(result.files.map((f) => f.accountId))).toEqual(new Set(ENABLED));
    // Each account numbers its own statements from 1, whatever the others hold.
    for (const id of ENABLED)
      for (const format of new Set(result.files.map((f) => f.format))) {
        const numbers = result.files
          .filter((f) => f.accountId === id && f.format === format)
          .map((f) => f.sequenceNumber);
        expect(numbers).toEqual(numbers.map((_, i) => i + 1));
      }
    expect(reads.exported).toHaveBeenCalledTimes(formats);
    expect(reads.numbered).toHaveBeenCalledTimes(formats);
    expect(reads.days).toHaveBeenCalledTimes(1);
    expect(reads.legal).toHaveBeenCalledTimes(1);
    expect(reads.exported.mock.calls[0]![1]).toEqual(expect.arrayContaining(ENABLED));
    expect(reads.days.mock.calls[0]![0]).toEqual(expect.arrayContaining(ENABLED));
    // The accounts share their days, so their bookings are one read per joined range.
    for (const call of reads.booked.mock.calls) expect(call[0]).toEqual(expect.arrayContaining(ENABLED));
  });

  it('writes the same files and numbers with every account read alone', async () => {
    const together = await runExportStatements(h.exportDeps(), [h.company]);
    const other = await startStatementHarness({ secondBank: true });
    try {
      await runFetchStatements(other.fetchDeps(), [other.company]);
      const deps = other.exportDeps({ accountsReadTogether: 1 });
      const days = vi.spyOn(deps.days, 'listOf');
      const alone = await runExportStatements(deps, [other.company]);
      expect(days).toHaveBeenCalledTimes(ENABLED.length);
      expect(written(alone)).toEqual(written(together));
      expect(written(alone).length).toBeGreaterThan(ENABLED.length);
    } finally {
      await other.close();
    }
  });
});
