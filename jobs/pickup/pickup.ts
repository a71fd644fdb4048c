// The pickup job: takes each company's stable payment files from its inbox, validates them, and
// either stores the file and its payments in the file ledger (one transaction) and archives the
// original, or moves it to error/ with a report beside it. Crash-safe at every step
// (architecture §2.1): the ledger commit comes before any move, and a file whose hash was
// accepted is never processed twice — a crash between commit and move is healed on the next run.
// A file whose hash was rejected is validated anew when dropped again (the bank side may have been
// fixed since, e.g. the debtor account enabled); its new record supersedes the rejected one.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import { globToRegExp, takeStableFiles, type FileEntry } from '../../src/transport/index.js';
import { looksLikeCamt055 } from '../../src/formats/camt055/index.js';
import { reportOthers } from '../inbox/index.js';
import { removeStaleParts } from '../inbox/index.js';
import { readInboxFile, timeAhead, type InboxRead } from './read.js';
import type { CompanyInbox, PickedFile, PickupDeps } from './pickup-types.js';
import { handleCancellation, handleKnown, handleNew } from './handle-file.js';

// Where callers have always found them.
export { lookAtInboxes } from './earlier-look.js';
export type { HeldLineSummary, PickedFile, PickupDeps, PickupOutcome } from './pickup-types.js';

export async function runPickup(deps: PickupDeps, companies: readonly CompanyConfig[]): Promise<PickedFile[]> {
  const picked: PickedFile[] = [];
  for (const company of companies) {
    const fileStore = await deps.fileStore(company);
    const { inbox, archive, error } = company.folders;
    for (const dir of [inbox, archive, error]) await fileStore.ensureDir(dir);
    // A run stopped between a move's two steps left the file under its inbox name as well; it
    // was taken already (the ledger has it), so the move is finished, never the file read again.
    for (const moved of await fileStore.finishMoves(inbox)) {
      deps.logger.warn('an interrupted move out of the inbox was finished', {
        company: company.id,
        file: moved.name,
        movedTo: moved.to,
      });
      picked.push({ company: company.id, name: moved.name, outcome: 'healed', payments: 0, movedTo: moved.to });
    }
    // A run killed while writing NAME.errors.* left NAME.errors.*.part: the file stayed in the
    // inbox and is refused again under a free name, so nothing writes over the leftover.
    await removeStaleParts(fileStore, error, deps.clock, deps.logger);
    const pattern = new RegExp(
      company.intake.pattern
        .split(',')
        .map((g) => globToRegExp(g.trim()).source)
        .join('|'),
      'i',
    );
    const marker = company.intake.readyMarker;
    const earlier = deps.earlierLooks?.get(company.id);
    const { stable, skipped, others, orphanMarkers, waiting } = await takeStableFiles(fileStore, inbox, {
      pattern,
      settleMs: company.intake.stableFor,
      maxFiles: company.intake.maxFilesPerRun,
      // file times are real time, so the stable check uses the system clock, not deps.clock
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(marker ? { marker } : {}),
      ...(earlier === undefined ? {} : { earlier }),
    });
    await reportOthers(deps, company.id, others);
    // A marker whose file an earlier run took would let a later file of that name in unfinished.
    for (const name of orphanMarkers) await fileStore.remove(posix.join(inbox, name));
    for (const s of skipped.filter((f) => f.reason !== 'pattern' && f.reason !== 'marker')) {
      // Waiting never makes an unsafe name safe: say so, with the code docs/errors.md explains.
      if (s.reason === 'unsafe-name')
        deps.logger.warn('inbox file never taken: its name is unsafe or too long; rename it', {
          company: company.id,
          file: s.name,
          code: 'ERR_FILE_NAME_UNSAFE',
        });
      else deps.logger.info('inbox file not taken yet', { company: company.id, file: s.name, reason: s.reason });
    }
    if (waiting) picked.push(overTheCap(deps, company, waiting));
    const debtorCheck = stable.length === 0 ? undefined : await deps.debtorAccounts?.(company);
    if (debtorCheck !== undefined && typeof debtorCheck !== 'function') {
      // Without the account list no line can be checked; the files are not at fault: they wait.
      const waitingFor = `the bank's account list, to check the debtor accounts (not read: ${debtorCheck.unreachable}); taken on the next run`;
      deps.logger.warn('the bank did not give the account list: the files wait in the inbox for the next run', {
        company: company.id,
        files: stable.map((f) => f.name),
        reason: debtorCheck.unreachable,
      });
      for (const f of stable) {
        const movedTo = posix.join(inbox, f.name);
        picked.push({ company: company.id, name: f.name, outcome: 'waiting', payments: 0, movedTo, waitingFor });
      }
      continue;
    }
    for (const s of skipped.filter((f) => f.reason === 'time-ahead'))
      picked.push(
        leftInInbox(deps, company, s.name, timeAhead(fileStore, posix.join(inbox, s.name), s.mtimeMs!, new Date())),
      );
    const controls = stable.length === 0 ? undefined : await deps.controls?.(company);
    for (const entry of stable) {
      const result = await pickOne(deps, { company, fileStore, debtorCheck, controls }, entry);
      if (result.outcome === 'waiting' || result.outcome === 'refused') {
        picked.push(result);
        continue;
      }
      if (marker) await fileStore.remove(posix.join(inbox, entry.name + marker));
      deps.logger.info(`file ${result.outcome}`, {
        company: company.id,
        file: result.name,
        payments: result.payments,
        movedTo: result.movedTo,
        ...(result.held ? { held: result.held } : {}),
      });
      picked.push(result);
    }
  }
  return picked;
}

/**
 * More files than `intake.maxFilesPerRun` could be taken: the first of those left over stands
 * for them in the run's report (one line, not one per file), and all wait for the next run.
 */
function overTheCap(deps: PickupDeps, company: CompanyConfig, waiting: { first: string; count: number }): PickedFile {
  const cap = company.intake.maxFilesPerRun;
  const waitingFor = `the next run: this run took at most the first ${cap} files by name (intake.maxFilesPerRun); ${waiting.count} file(s) wait, from this one on`;
  deps.logger.warn('more inbox files than one run takes: the rest wait for the next run', {
    company: company.id,
    taken: cap,
    waiting: waiting.count,
    first: waiting.first,
  });
  const movedTo = posix.join(company.folders.inbox, waiting.first);
  return { company: company.id, name: waiting.first, outcome: 'waiting', payments: 0, movedTo, waitingFor };
}

/**
 * A file left in the inbox unread (the read went wrong, or the file is not what its listing
 * said), reported in the run's summary and the log with its reason.
 */
function leftInInbox(
  deps: PickupDeps,
  company: CompanyConfig,
  name: string,
  read: Exclude<InboxRead, { kind: 'read' }>,
): PickedFile {
  const base = { company: company.id, name, payments: 0, movedTo: posix.join(company.folders.inbox, name) };
  if (read.kind === 'waiting') {
    deps.logger.warn('inbox file not taken: it is read again next run', {
      company: company.id,
      file: name,
      reason: read.why,
    });
    return { ...base, outcome: 'waiting', waitingFor: read.why };
  }
  deps.logger.warn('inbox file refused: left in place unread', {
    company: company.id,
    file: name,
    code: read.code,
    reason: read.why,
  });
  return { ...base, outcome: 'refused', refused: { code: read.code, message: read.why } };
}

async function pickOne(deps: PickupDeps, inboxOf: Omit<CompanyInbox, 'deps'>, entry: FileEntry): Promise<PickedFile> {
  const { company, fileStore } = inboxOf;
  const { inbox } = company.folders;
  const source = posix.join(inbox, entry.name);
  await mkdir(deps.workDir, { recursive: true });
  const local = join(deps.workDir, `${company.id}-${createHash('sha1').update(entry.name).digest('hex')}`);
  try {
    const read = await readInboxFile(fileStore, source, local, entry);
    if (read.kind !== 'read') return leftInInbox(deps, company, entry.name, read);
    const { sha256 } = read;
    const at: CompanyInbox = { deps, ...inboxOf };
    // A cancellation request is not a payment file: it never enters the file ledger.
    if (deps.cancellationRequest && looksLikeCamt055((await readFile(local)).subarray(0, 4096).toString('utf8')))
      return await handleCancellation(at, entry.name, { local, sha256 });
    const known = await deps.ledger.findFileBySha256(company.id, sha256);
    if (known && known.state !== 'rejected') return await handleKnown(at, entry.name, known);
    return await handleNew(at, entry, { local, sha256, ...(known ? { supersedes: known } : {}) });
  } finally {
    await rm(local, { force: true });
  }
}
