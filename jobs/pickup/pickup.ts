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
import { mapConcurrent } from '../../src/domain/concurrent.js';
import type { Clock } from '../../src/domain/clock.js';
import type { ErrorCode } from '../../src/domain/errors.js';
import { dateInZone, today } from '../../src/domain/local-date.js';
import type { CsvProfile } from '../../src/formats/csv-profile/index.js';
import {
  clipIssues,
  intakeValidation,
  LinePlaces,
  validateFile,
  type IntakeResult,
} from '../../src/formats/intake/index.js';
import { FALLBACK_LOCALE, type Locale } from '../../src/i18n/index.js';
import type { Logger } from '../../src/log/index.js';
import type { FileLedger, ReportRepository, StoredFile } from '../../src/store/index.js';
import type { ControlSetup } from '../../src/store/index.js';
import {
  globToRegExp,
  monotonicMs,
  takeStableFiles,
  type EarlierLook,
  type FileEntry,
  type FileStore,
} from '../../src/transport/index.js';
import { looksLikeCamt055 } from '../../src/formats/camt055/index.js';
import type { Camt055Answer } from '../cancel/index.js';
import type { DebtorAccountCheck } from '../accounts/index.js';
import type { DirectoryUnreachable } from '../accounts/index.js';
import { reportOthers } from '../inbox/index.js';
import { archivePath, freeName } from '../inbox/index.js';
import { removeStaleParts } from '../inbox/index.js';
import { fileReport, type FileReport } from './report.js';
import { readInboxFile, timeAhead, type InboxRead } from './read.js';

export type PickupOutcome =
  'accepted' | 'partially-accepted' | 'rejected' | 'duplicate' | 'healed' | 'cancellation' | 'waiting' | 'refused';

export interface PickedFile {
  company: string;
  name: string;
  outcome: PickupOutcome;
  payments: number;
  /** Where the original went, relative to the company's root (a waiting file stays in the inbox). */
  movedTo: string;
  /** The error report, when one was written. */
  report?: string;
  /** Absent for a file left waiting: it was not read. */
  sha256?: string;
  /** Why a `waiting` file was left in the inbox for the next run, in the operator's words. */
  waitingFor?: string;
  /** Why a `refused` file was left in the inbox unread: it was not what its listing said, or not a file. */
  refused?: { code: ErrorCode; message: string };
  /** Lines held for a person (likely duplicates, payment controls): not sent until a person decides. */
  held?: number;
  /** The held lines, located in the file's own words: its line and end-to-end id, and the rules. */
  heldLines?: HeldLineSummary[];
}

export interface HeldLineSummary {
  lineNumber: number;
  endToEndId: string;
  rules: string[];
}

export interface PickupDeps {
  ledger: FileLedger;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  /** Local scratch folder for downloaded copies. */
  workDir: string;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  profile(name: string): Promise<CsvProfile>;
  /**
   * The check of debtor accounts against the company's accounts at its banks (read at most once
   * per run); `unreachable` when the bank did not answer (the files wait in the inbox), undefined
   * when the company names no bank (no check).
   */
  debtorAccounts?(company: CompanyConfig): Promise<DebtorAccountCheck | DirectoryUnreachable | undefined>;
  /** Each company's inbox as a look at the start of the run saw it (lookAtInboxes), by company id. */
  earlierLooks?: ReadonlyMap<string, EarlierLook>;
  /** Wait between the two looks of the stable-file check (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
  /** True the first time a finding with this key is seen (later runs stay quiet about it). */
  firstSighting?(key: string): Promise<boolean>;
  /** Carries out a camt.055 cancellation request from the ERP (jobs/cancel/camt055-intake.ts). */
  cancellationRequest?(company: CompanyConfig, file: { name: string; xml: string }): Promise<Camt055Answer>;
  /** Records each error report of a file in the ledger, so the console links it by id. */
  reports?: Pick<ReportRepository, 'record'>;
  /** The language of the reports of a company that names none (config `locale`); default English. */
  locale?: Locale;
  /** The company's payment controls (jobs/controls/controls.ts), read once per run; none: no control holds. */
  controls?(company: CompanyConfig): Promise<ControlSetup | undefined>;
}

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

/** One company's inbox: what the steps of a pickup share. */
interface CompanyInbox {
  deps: PickupDeps;
  company: CompanyConfig;
  fileStore: FileStore;
  debtorCheck?: DebtorAccountCheck | undefined;
  controls?: ControlSetup | undefined;
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

/**
 * A file whose bytes the ledger accepted: finish an interrupted move, or report a re-drop (a
 * rejected file is never here: its re-drop is validated anew).
 */
async function handleKnown(at: CompanyInbox, name: string, known: StoredFile): Promise<PickedFile> {
  const { deps, company, fileStore } = at;
  const { inbox, archive } = company.folders;
  const day = dateInZone(known.receivedAt, deps.timeZone);
  const interruptedTarget = archivePath(archive, day, name);
  const base = { company: company.id, name, payments: known.acceptedCount, sha256: known.sha256 };
  if (known.fileName === name && !(await fileStore.exists(interruptedTarget))) {
    // The ledger committed but the move did not happen: finish it (architecture §2.1).
    await fileStore.ensureDir(posix.dirname(interruptedTarget));
    await fileStore.move(posix.join(inbox, name), interruptedTarget);
    return { ...base, outcome: 'healed', movedTo: interruptedTarget };
  }
  const when = known.receivedAt.toISOString().slice(0, 16).replace('T', ' ');
  const message = `This file is byte-for-byte the file "${known.fileName}" that was accepted at ${when} UTC with ${known.acceptedCount} payment(s). It was not processed again, so nothing was paid twice.`;
  const { movedTo, report } = await moveToError(at, name, {
    text: `${name}: DUPLICATE — not processed\n${message}\nsha256 ${known.sha256}\n`,
    json: {
      file: name,
      duplicateOf: {
        id: known.id,
        file: known.fileName,
        state: known.state,
        receivedAt: known.receivedAt.toISOString(),
      },
      sha256: known.sha256,
      message,
    },
  });
  return { ...base, payments: 0, outcome: 'duplicate', movedTo, report };
}

/**
 * A camt.055 from the ERP: each request is carried out and answered in a camt.029 in the status
 * folder, then the original is archived; a malformed one goes to error/ with its located problems.
 */
async function handleCancellation(
  at: CompanyInbox,
  name: string,
  { local, sha256 }: { local: string; sha256: string },
): Promise<PickedFile> {
  const { deps, company, fileStore } = at;
  const base = { company: company.id, name, payments: 0, sha256 };
  const answer = await deps.cancellationRequest!(company, { name, xml: await readFile(local, 'utf8') });
  if (!answer.ok) {
    const lines = answer.problems.map((p) => `line ${p.line} ${p.path}: ${p.message}`);
    const message = 'This camt.055 cancellation request was not read, so nothing in it was cancelled.';
    const { movedTo, report } = await moveToError(at, name, {
      text: `${name}: REJECTED — ERR_CAMT055_INVALID\n${message}\n${lines.join('\n')}\nCorrect the file and drop it again.\n`,
      json: { file: name, code: 'ERR_CAMT055_INVALID', message, problems: answer.problems, sha256 },
    });
    return { ...base, outcome: 'rejected', movedTo, report };
  }
  await fileStore.ensureDir(company.folders.status);
  await fileStore.writeAtomic(posix.join(company.folders.status, answer.camt029.name), answer.camt029.xml);
  const movedTo = await moveToArchive(at, name, deps.clock.now());
  return { ...base, outcome: 'cancellation', movedTo, report: posix.join(company.folders.status, answer.camt029.name) };
}

/** A file new to the ledger (or a re-drop of a rejected one, which it supersedes), downloaded to `local`. */
async function handleNew(
  at: CompanyInbox,
  entry: FileEntry,
  { local, sha256, supersedes }: { local: string; sha256: string; supersedes?: StoredFile },
): Promise<PickedFile> {
  const { deps, company, fileStore } = at;
  const now = deps.clock.now();
  const profile = await deps.profile(company.intake.profile);
  const file = {
    company: company.id,
    fileName: entry.name,
    sha256,
    format: 'unknown',
    sizeBytes: entry.size,
    receivedAt: now,
    source: `${fileStore.description}/${company.folders.inbox}`,
    ...(entry.owner ? { droppedBy: entry.owner } : {}),
  };
  const window = company.intake.duplicateWindow;
  // The payments go into the ledger as they are validated, a batch at a time, in the file's one
  // transaction: memory stays flat however long the file (docs/performance.md).
  const places = new LinePlaces();
  const received = await deps.ledger.receiveFile(
    file,
    {
      ...(window > 0 ? { holdDuplicatesSince: new Date(now.getTime() - window) } : {}),
      ...(at.controls ? { controls: at.controls } : {}),
      ...(supersedes ? { supersedes } : {}),
    },
    async (sink) => {
      let accepted = 0;
      const result: IntakeResult = await validateFile(local, {
        profile,
        // The same validation as `settle validate` (src/formats/intake/intake-settings.ts).
        validation: intakeValidation(
          company.intake,
          today(deps.clock, deps.timeZone),
          at.debtorCheck ? { debtorAccountProblem: at.debtorCheck } : {},
        ),
        knownEndToEndIds: (ids) => sink.knownEndToEndIds(ids),
        onPayment: (p) => {
          accepted++;
          return sink.add(p);
        },
        sha256,
        maxFileBytes: company.intake.maxFileSize,
        places,
      });
      // A control total that disagrees refuses the whole file: its valid lines do not go on alone.
      const partial = !result.valid && company.intake.acceptValidLines && accepted > 0 && result.wholeFileErrors === 0;
      return {
        keep: result.valid || partial,
        rejectedCount: result.payments - accepted,
        record: { format: result.format, ...(result.messageId ? { messageId: result.messageId } : {}) },
        result,
        partial,
      };
    },
  );
  const { result, partial } = received.filled;
  const shown = { ...result, file: entry.name, issues: clipIssues(result.issues) };
  const recorded = received.stored;

  if (recorded) {
    const held = recorded.holds.length;
    // After the commit (the holds are decided inside it), before the move: a crash in between
    // leaves the held lines in the ledger, where `settle payments held` shows them.
    const outcome = {
      kind: partial ? ('partially-accepted' as const) : ('accepted' as const),
      payments: result.payments,
      accepted: recorded.acceptedCount,
      held,
    };
    const report = fileReport({
      shown,
      outcome,
      holds: recorded.holds,
      locate: (line) => places.locate(result.format, line),
      profile,
      locale: localeOf(deps, company),
    });
    const reportTo =
      partial || held > 0
        ? await writeReport(
            fileStore,
            company.folders.error,
            await freeName(fileStore, company.folders.error, entry.name, now),
            report,
          )
        : undefined;
    if (reportTo) await recordReport(at, recorded.id, reportTo, report);
    const movedTo = await moveToArchive(at, entry.name, now);
    return {
      company: company.id,
      name: entry.name,
      outcome: partial ? 'partially-accepted' : 'accepted',
      payments: recorded.acceptedCount,
      movedTo,
      sha256,
      ...(reportTo ? { report: reportTo } : {}),
      ...(held > 0
        ? {
            held,
            heldLines: recorded.holds.map((h) => ({
              lineNumber: h.lineNumber,
              endToEndId: h.endToEndId,
              rules: h.rules ?? ['duplicate'],
            })),
          }
        : {}),
    };
  }
  const summary = shown.issues
    .filter((i) => i.severity === 'error')
    .slice(0, 3)
    .map((i) => `${i.code}: ${i.message}`)
    .join('; ');
  // Reports first, then the ledger, then the move: a crash at any point leaves the original in
  // the inbox (retried) or a ledger record whose move the next run finishes.
  const errorName = await freeName(fileStore, company.folders.error, entry.name, now);
  const report = fileReport({
    shown,
    outcome: { kind: 'rejected', payments: result.payments, accepted: 0, held: 0 },
    holds: [],
    locate: (line) => places.locate(result.format, line),
    profile,
    locale: localeOf(deps, company),
  });
  const reportPath = await writeReport(fileStore, company.folders.error, errorName, report);
  const format = { format: result.format, ...(result.messageId ? { messageId: result.messageId } : {}) };
  const rejected = await deps.ledger.recordRejectedFile(
    { ...file, ...format },
    summary,
    { lineCount: result.payments, rejectedCount: result.payments },
    supersedes ? { supersedes } : {},
  );
  await recordReport(at, rejected.id, reportPath, report);
  const movedTo = posix.join(company.folders.error, errorName);
  await fileStore.move(posix.join(company.folders.inbox, entry.name), movedTo);
  return {
    company: company.id,
    name: entry.name,
    outcome: 'rejected',
    payments: 0,
    movedTo,
    report: reportPath,
    sha256,
  };
}

/** The original into archive/DAY/ under a free name; returns where it went. */
async function moveToArchive(at: CompanyInbox, name: string, now: Date): Promise<string> {
  const { deps, fileStore, company } = at;
  const dir = posix.join(company.folders.archive, dateInZone(now, deps.timeZone));
  await fileStore.ensureDir(dir);
  const movedTo = posix.join(dir, await freeName(fileStore, dir, name, now));
  await fileStore.move(posix.join(company.folders.inbox, name), movedTo);
  return movedTo;
}

async function moveToError(
  at: CompanyInbox,
  name: string,
  report: { text: string; json: unknown },
): Promise<{ movedTo: string; report: string }> {
  const { deps, fileStore, company } = at;
  const errorName = await freeName(fileStore, company.folders.error, name, deps.clock.now());
  const reportPath = await writeReport(fileStore, company.folders.error, errorName, report);
  const movedTo = posix.join(company.folders.error, errorName);
  await fileStore.move(posix.join(company.folders.inbox, name), movedTo);
  return { movedTo, report: reportPath };
}

/**
 * The report of a file in the ledger, text and HTML, recorded after the ledger row it names (a
 * crash in between leaves the report in the error folder, only not linked from the console).
 */
async function recordReport(at: CompanyInbox, fileId: string, path: string, report: FileReport): Promise<void> {
  const base = {
    company: at.company.id,
    kind: 'error' as const,
    subject: { type: 'payment_file' as const, id: fileId },
  };
  await at.deps.reports?.record({ ...base, name: posix.basename(path), mediaType: 'text/plain', content: report.text });
  await at.deps.reports?.record({
    ...base,
    name: posix.basename(path).replace(/\.txt$/, '.html'),
    mediaType: 'text/html',
    content: report.html,
  });
}

/** The language of the company's reports: its own `locale`, else the installation's. */
function localeOf(deps: PickupDeps, company: CompanyConfig): Locale {
  return company.locale ?? deps.locale ?? FALLBACK_LOCALE;
}

/**
 * NAME.errors.txt and NAME.errors.html for people, NAME.errors.json for machines, written
 * atomically; the text last, as the one the run names.
 */
async function writeReport(
  fileStore: FileStore,
  dir: string,
  name: string,
  report: { text: string; json: unknown; html?: string },
): Promise<string> {
  const base = posix.join(dir, name);
  await fileStore.writeAtomic(`${base}.errors.json`, JSON.stringify(report.json, null, 2) + '\n');
  if (report.html !== undefined) await fileStore.writeAtomic(`${base}.errors.html`, report.html);
  await fileStore.writeAtomic(`${base}.errors.txt`, report.text);
  return `${base}.errors.txt`;
}

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
