// The purge job: what settle no longer has to keep goes, company by company (docs/operations.md,
// "Retention"). A company's bookkeeping material — payments and their files, statements, the
// ERP files in archive/ — is kept `retention.bookkeepingYears` after the end of the fiscal year
// it belongs to (the calendar year; Norway's bokføringsloven §13 asks five), so on any day of
// 2027 with five years, everything dated before 2022-01-01 may go. What no law keeps — the raw
// bank JSON beyond the field statements are built from, rejected ERP files and their error
// reports in error/ — goes after `retention.operational`. The audit trail is never purged.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import { today, type LocalDate } from '../../src/domain/local-date.js';
import { startOfDay } from '../../src/domain/zoned-time.js';
import type { Logger } from '../../src/log/index.js';
import type { BookkeepingCutoff, PurgeCounts, RetentionRepository } from '../../src/store/index.js';
import type { FileStore } from '../../src/transport/index.js';

export interface PurgeDeps {
  retention: RetentionRepository;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  fileStore(company: CompanyConfig): Promise<FileStore>;
}

export interface CompanyPurge {
  company: string;
  /** The first day whose bookkeeping material is kept. */
  keptFrom: LocalDate;
  /** Rows deleted (or trimmed) per table, and files removed per folder. */
  counts: PurgeCounts;
}

/** The first day kept: 1 January of the year `years` before this one (material of earlier fiscal years may go). */
export function bookkeepingKeptFrom(day: LocalDate, years: number): LocalDate {
  return `${String(Number(day.slice(0, 4)) - years).padStart(4, '0')}-01-01` as LocalDate;
}

export async function runPurgeCompany(deps: PurgeDeps, company: CompanyConfig): Promise<CompanyPurge> {
  const timeZone = company.timeZone ?? deps.timeZone;
  const keptFrom = bookkeepingKeptFrom(today(deps.clock, timeZone), company.retention.bookkeepingYears);
  const cutoff: BookkeepingCutoff = { company: company.id, day: keptFrom, start: startOfDay(keptFrom, timeZone) };
  const operationalBefore = new Date(deps.clock.now().getTime() - company.retention.operational);
  const counts: PurgeCounts = {};
  await deps.retention.purgePaymentFiles(cutoff, counts);
  await deps.retention.purgeStatements(cutoff, counts);
  await deps.retention.trimRawTransactions(company.id, operationalBefore, counts);
  // The counters /metrics reads, checked against the rows once a purge: a change made without its
  // difference (an old instance mid-run while a new one migrated) is corrected here, and said.
  const wrong = await deps.retention.recountStates(company.id);
  if (wrong.length > 0) {
    counts['state counters corrected'] = wrong.length;
    deps.logger.warn('rows-per-state counters corrected to a count of the rows', { company: company.id, wrong });
  }
  const fileStore = await deps.fileStore(company);
  counts['archive files'] = await removeArchivedBefore(fileStore, company.folders.archive, keptFrom);
  counts['error files'] = await removeOlderThan(fileStore, company.folders.error, operationalBefore.getTime());
  deps.logger.info('retention purge done', { company: company.id, keptFrom, counts });
  return { company: company.id, keptFrom, counts };
}

/** Purges what no company owns; returns the rows deleted per table. */
export async function runPurgeShared(
  deps: Pick<PurgeDeps, 'retention' | 'clock' | 'logger'>,
  operationalMs: number,
): Promise<PurgeCounts> {
  const counts: PurgeCounts = {};
  await deps.retention.purgeOperational(new Date(deps.clock.now().getTime() - operationalMs), counts);
  deps.logger.info('retention purge of shared records done', { counts });
  return counts;
}

/** archive/YYYY-MM-DD/NAME: the files of every day folder before `keptFrom`. */
async function removeArchivedBefore(store: FileStore, archive: string, keptFrom: LocalDate): Promise<number> {
  const scan = await scanOrNothing(store, archive);
  let removed = 0;
  for (const entry of scan.others) {
    if (entry.kind !== 'directory' || !/^\d{4}-\d{2}-\d{2}$/.test(entry.name) || entry.name >= keptFrom) continue;
    removed += await removeOlderThan(store, `${archive}/${entry.name}`, Infinity);
  }
  return removed;
}

/** Removes the regular files directly in `dir` last changed before `beforeMs`. */
async function removeOlderThan(store: FileStore, dir: string, beforeMs: number): Promise<number> {
  let removed = 0;
  for (const file of (await scanOrNothing(store, dir)).files) {
    if (file.mtimeMs >= beforeMs) continue;
    await store.remove(`${dir}/${file.name}`);
    removed++;
  }
  return removed;
}

async function scanOrNothing(store: FileStore, dir: string): ReturnType<FileStore['scan']> {
  try {
    return await store.scan(dir);
  } catch (error) {
    if (isSettleError(error, 'ERR_FILE_NOT_FOUND')) return { files: [], others: [] };
    throw error;
  }
}
