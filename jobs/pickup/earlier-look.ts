// The first look at every company's inbox at the start of a run of many companies, so each
// company's pickup need not wait out its own stable-file check (docs/transport.md).
import type { CompanyConfig } from '../../src/config/index.js';
import { mapConcurrent } from '../../src/domain/concurrent.js';
import { monotonicMs, type EarlierLook } from '../../src/transport/index.js';
import type { PickupDeps } from './pickup-types.js';

/**
 * A first look at every company's inbox, for a run that works through many companies: each
 * company's pickup then compares with it instead of waiting `intake.stableFor` after a look of
 * its own (the files of the companies after the first few have been still that long by then).
 * A folder that cannot be read now is simply looked at twice later, as without this. The look
 * must never hold the night up longer than the waits it saves: `atOnce` companies are looked at
 * together, and a look that has not answered within the company's stableFor (an SFTP server
 * that does not answer waits out its connect timeout) is given up, its company waiting as before.
 */
export async function lookAtInboxes(
  deps: Pick<PickupDeps, 'fileStore'>,
  companies: readonly CompanyConfig[],
  atOnce = 1,
): Promise<Map<string, EarlierLook>> {
  const looks = new Map<string, EarlierLook>();
  await mapConcurrent(companies, atOnce, async (company) => {
    const look = async () => (await deps.fileStore(company)).scan(company.folders.inbox);
    const scan = await within(company.intake.stableFor, look);
    // The time after the look: the gap to the company's own look is never overstated.
    if (scan !== undefined) looks.set(company.id, { at: monotonicMs(), files: scan.files });
  });
  return looks;
}

/** What `fn` gives within `ms`; undefined when it fails or takes longer (it is then left to finish alone). */
async function within<T>(ms: number, fn: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      fn().catch(() => undefined),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
