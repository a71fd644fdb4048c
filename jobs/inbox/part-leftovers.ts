// Leftovers of interrupted writes. FileStore.writeAtomic writes NAME.<tag>.part (the tag is the
// writing process's) and renames it, so a reader never sees half a file; but a crash (SIGKILL,
// power) or an SFTP connection lost for good between the two steps leaves that file behind, and
// no later process writes the same name again, so the ERP's outbox would keep a half-written file
// forever (found by the chaos run, docs/testing.md#chaos-run). The jobs writing the ERP's
// outputs (statements, status files, reports) remove leftovers in their folder first, once they
// are older than any write still in flight can be.
import type { Clock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/log/index.js';
import type { FileEntry, FileStore } from '../../src/transport/index.js';

/** A NAME.part this old is no write in progress (writes take seconds; schedule.jobLease is 30 min). */
export const STALE_PART_MS = 3600_000;

/**
 * Removes `dir`'s NAME.part files older than STALE_PART_MS; returns the names removed. Age is
 * judged by settle's clock (the system clock in production; simulations that run it ahead see
 * leftovers age with it, one that runs it behind the files' times removes nothing).
 */
export async function removeStaleParts(store: FileStore, dir: string, clock: Clock, logger: Logger): Promise<string[]> {
  const cutoff = clock.now().getTime() - STALE_PART_MS;
  const removed: string[] = [];
  let entries: FileEntry[];
  try {
    // Only the .part files are looked at: the folder keeps every statement ever written.
    entries = await store.list(dir, { named: (name) => name.endsWith('.part') });
  } catch (error) {
    if (isSettleError(error, 'ERR_FILE_NOT_FOUND')) return removed; // nothing written there yet
    throw error;
  }
  for (const entry of entries) {
    if (!entry.name.endsWith('.part') || entry.mtimeMs > cutoff) continue;
    await store.remove(`${dir}/${entry.name}`);
    removed.push(entry.name);
    logger.warn('removed a half-written file left by an interrupted run', { folder: dir, file: entry.name });
  }
  return removed;
}
