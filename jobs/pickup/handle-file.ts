// What becomes of one inbox file once it is read: bytes the ledger accepted before (an interrupted
// move finished, or a re-drop reported), a camt.055 cancellation request, or a file new to the
// ledger, validated into it a batch at a time and archived, or refused with its report.
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { dateInZone, today } from '../../src/domain/local-date.js';
import { PickupHolds, type ControlSetup } from '../../src/domain/controls/index.js';
import {
  clipIssue,
  clipIssues,
  intakeValidation,
  issueJson,
  jsonListEntry,
  LinePlaces,
  SpilledIssues,
  validateFile,
  type IntakeResult,
} from '../../src/formats/intake/index.js';
import type { StoredFile } from '../../src/store/index.js';
import type { FileEntry } from '../../src/transport/index.js';
import { archivePath, freeName } from '../inbox/index.js';
import { fileReport } from './report.js';
import type { CompanyInbox, PickedFile } from './pickup-types.js';
import { localeOf, moveToArchive, moveToError, recordReport, writeReport } from './file-moves.js';

/**
 * A file whose bytes the ledger accepted: finish an interrupted move, or report a re-drop (a
 * rejected file is never here: its re-drop is validated anew).
 */
export async function handleKnown(at: CompanyInbox, name: string, known: StoredFile): Promise<PickedFile> {
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
export async function handleCancellation(
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
export async function handleNew(
  at: CompanyInbox,
  entry: FileEntry,
  read: { local: string; sha256: string; supersedes?: StoredFile },
): Promise<PickedFile> {
  // The issues past the kept ones wait beside the downloaded copy for the JSON report, each
  // already as the JSON entry it will be there, its quoted values clipped as the kept ones are.
  const spilled = new SpilledIssues(`${read.local}.issues`, (issue) => jsonListEntry(issueJson(clipIssue(issue))));
  try {
    return await validateNew(at, entry, read, spilled);
  } finally {
    spilled.remove();
  }
}

async function validateNew(
  at: CompanyInbox,
  entry: FileEntry,
  { local, sha256, supersedes }: { local: string; sha256: string; supersedes?: StoredFile },
  spilled: SpilledIssues,
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
      ...(window > 0 || at.controls ? { holds: pickupHolds(now, window, at.controls) } : {}),
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
        moreIssues: (issue) => spilled.add(issue),
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
    const reportName =
      partial || held > 0 ? await freeName(fileStore, company.folders.error, entry.name, now) : undefined;
    const report = fileReport({
      shown,
      outcome,
      holds: recorded.holds,
      locate: (line) => places.locate(result.format, line),
      profile,
      locale: localeOf(deps, company),
      ...(reportName === undefined ? {} : { reportName }),
      spilled,
    });
    const reportTo =
      reportName === undefined ? undefined : await writeReport(fileStore, company.folders.error, reportName, report);
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
    reportName: errorName,
    spilled,
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

/**
 * Which lines of a file are held for a person (src/domain/controls/pickup-holds.ts): a likely
 * duplicate of a payment accepted within the company's window (`duplicateWindow`, none at 0), and
 * what its payment controls match. The ledger stores each line as this rule decides.
 */
function pickupHolds(now: Date, window: number, controls: ControlSetup | undefined): PickupHolds {
  return new PickupHolds({
    ...(window > 0 ? { duplicatesSince: new Date(now.getTime() - window) } : {}),
    ...(controls ? { controls } : {}),
  });
}
