// The export reads and records a company's accounts together: what each format delivered and
// numbered, the accounts' checked days, bookings and legal numbers, one read each for a group of
// accounts, their statements' legal numbers one insert, their files one record — not one each an
// account. What it writes does not depend on how the accounts were grouped, and a write that fails
// loses no file written before it. The sandbox bank over real HTTP and a SQLite file; the reads
// and writes are counted, not replaced, and only the failure is injected.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExportStatements, type ExportResult } from '../../../jobs/statements/export.js';
import type { FileStore } from '../../../src/transport/index.js';
import { runFetchStatements } from '../../../jobs/statements/fetch.js';
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
      numbering: vi.spyOn(deps.legalSequence, 'assignAllOf'),
      records: vi.spyOn(deps.exports, 'recordFirsts'),
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
    // Their statements' legal numbers are given in one go, and their files recorded in one.
    expect(reads.numbering).toHaveBeenCalledTimes(1);
    expect([...reads.numbering.mock.calls[0]![0].keys()].sort()).toEqual([...ENABLED].sort());
    expect(reads.records).toHaveBeenCalledTimes(1);
    expect(reads.records.mock.calls[0]![0]).toHaveLength(result.files.length);
    // A run after it checks what was delivered in the overlap window: one read a format.
    const latest = vi.spyOn(deps.exports, 'latestOfAll');
    const next = await runExportStatements(deps, [h.company]);
    expect(next.files).toEqual([]);
    expect(next.changed).toEqual([]);
    expect(latest).toHaveBeenCalledTimes(formats);
    expect(latest.mock.calls[0]![1].size).toBe(ENABLED.length);
  });

  it('records every file written before a write that fails, and the next run writes the rest once', async () => {
    const real = await h.exportDeps().fileStore(h.company);
    let writes = 0;
    const failing = Object.create(real) as FileStore;
    failing.writeAtomic = (path, bytes) => {
      if (++writes === 4) return Promise.reject(new Error('the disk is full'));
      return real.writeAtomic(path, bytes);
    };
    await expect(
      runExportStatements(h.exportDeps({ fileStore: () => Promise.resolve(failing) }), [h.company]),
    ).rejects.toThrow('the disk is full');
    const rest = await runExportStatements(h.exportDeps(), [h.company]);
    const format = rest.files[0]!.format;
    // The three written before the failure were recorded (the rest run did not write them again).
    const recorded = await h.exportDeps().exports.exportedPeriodsOf(format, ENABLED);
    const count = [...recorded.values()].reduce((n, periods) => n + periods.length, 0);
    expect(rest.files.filter((f) => f.format === format).length).toBe(count - 3);
    expect(rest.files.every((f) => f.version === 1)).toBe(true);
    // And what the two runs recorded is what one run writes on its own.
    const other = await startStatementHarness({ secondBank: true });
    try {
      await runFetchStatements(other.fetchDeps(), [other.company]);
      const whole = await runExportStatements(other.exportDeps(), [other.company]);
      expect(whole.files.filter((f) => f.format === format).length).toBe(count);
    } finally {
      await other.close();
    }
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
