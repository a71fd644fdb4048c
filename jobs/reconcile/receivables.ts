// Takes the ERP's files of open receivables from the company's receivables folder, the way
// pickup takes payment files: regular files only, once they are stable; each file is known by
// the SHA-256 of its bytes and imported once, in one transaction, before it is moved to
// archive/receivables/DAY/. A file with a bad line is imported not at all and moved to error/
// with a report naming each line, the column, the reason and what to do.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { dateInZone } from '../../src/domain/local-date.js';
import { fileTooLargeMessage } from '../../src/domain/validation/file-size.js';
import {
  readReceivables,
  receivableProblemsText,
  type ReceivablesProfile,
  type ReceivableProblem,
} from '../../src/formats/receivables/index.js';
import { FALLBACK_LOCALE } from '../../src/i18n/index.js';
import type { Logger } from '../../src/log/index.js';
import type { Store } from '../../src/store/index.js';
import { takeStableFiles, type FileEntry, type FileStore } from '../../src/transport/index.js';
import { reportOthers, archivePath, freeName } from '../inbox/index.js';

export type ReceivablesOutcome = 'imported' | 'rejected' | 'duplicate' | 'healed';

export interface ReceivablesFileResult {
  company: string;
  name: string;
  outcome: ReceivablesOutcome;
  receivables: number;
  /** Where the file went, relative to the company's root. */
  movedTo: string;
  report?: string;
}

export interface ReceivablesDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  receivablesProfile(name: string): Promise<ReceivablesProfile>;
  /** Wait between the two looks of the stable-file check (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

/** Imports the company's new receivables files; nothing when it has no receivables folder. */
export async function takeReceivables(
  deps: ReceivablesDeps,
  company: CompanyConfig,
  files: FileStore,
): Promise<ReceivablesFileResult[]> {
  const dir = company.folders.receivables;
  if (!dir) return [];
  await files.ensureDir(dir);
  // A move out of the folder that a stopped run left half done is finished, the file not read again.
  const results: ReceivablesFileResult[] = (await files.finishMoves(dir)).map((moved) => {
    deps.logger.warn('an interrupted move out of the receivables folder was finished', {
      company: company.id,
      file: moved.name,
      movedTo: moved.to,
    });
    return { company: company.id, name: moved.name, outcome: 'healed', receivables: 0, movedTo: moved.to };
  });
  const { stable, others } = await takeStableFiles(files, dir, {
    pattern: /\.(csv|txt)$/i,
    settleMs: company.intake.stableFor,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  await reportOthers(deps, company.id, others);
  for (const entry of stable) {
    const result = await takeOne(deps, company, files, dir, entry);
    if (!result) continue;
    deps.logger[result.outcome === 'rejected' || result.outcome === 'duplicate' ? 'warn' : 'info'](
      `receivables file ${result.outcome}`,
      { company: company.id, file: result.name, receivables: result.receivables, movedTo: result.movedTo },
    );
    results.push(result);
  }
  return results;
}

async function takeOne(
  deps: ReceivablesDeps,
  company: CompanyConfig,
  files: FileStore,
  dir: string,
  entry: FileEntry,
): Promise<ReceivablesFileResult | undefined> {
  const source = posix.join(dir, entry.name);
  const base = { company: company.id, name: entry.name };
  if (entry.size > company.intake.maxFileSize)
    return toError(
      { deps, company, files, source, name: entry.name },
      {
        line: 0,
        message: fileTooLargeMessage(entry.size, company.intake.maxFileSize, 'receivables'),
      },
    );
  const bytes = await files.readBuffer(source);
  const after = await files.stat(source);
  // A writer that kept going after the stable check: look again next run.
  if (bytes.length !== entry.size || after?.size !== entry.size || after.mtimeMs !== entry.mtimeMs) return undefined;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const known = await deps.store.receivables.findFile(company.id, sha256);
  if (known) {
    const target = archivePath(archiveDir(company), dateInZone(known.receivedAt, deps.timeZone), entry.name);
    if (known.fileName === entry.name && !(await files.exists(target))) {
      // Imported, but the move did not happen: finish it.
      await files.ensureDir(posix.dirname(target));
      await files.move(source, target);
      return { ...base, outcome: 'healed', receivables: 0, movedTo: target };
    }
    const when = known.receivedAt.toISOString().slice(0, 16).replace('T', ' ');
    const rejected = await toError(
      { deps, company, files, source, name: entry.name },
      {
        line: 0,
        message: `this file is byte-for-byte the file "${known.fileName}" imported at ${when} UTC; it was not imported again`,
      },
    );
    return { ...rejected, outcome: 'duplicate' };
  }
  const profile = await deps.receivablesProfile(company.reconcile.receivablesProfile);
  const read = readReceivables(bytes, profile);
  if (read.problems.length > 0) return toError({ deps, company, files, source, name: entry.name }, ...read.problems);
  await deps.store.receivables.importFile(
    { company: company.id, sha256, fileName: entry.name },
    read.receivables.map((r) => ({ ...r })),
  );
  const day = dateInZone(deps.clock.now(), deps.timeZone);
  const folder = posix.join(archiveDir(company), day);
  await files.ensureDir(folder);
  const target = posix.join(folder, await freeName(files, folder, entry.name, deps.clock.now()));
  await files.move(source, target);
  return { ...base, outcome: 'imported', receivables: read.receivables.length, movedTo: target };
}

function archiveDir(company: CompanyConfig): string {
  return posix.join(company.folders.archive, 'receivables');
}

/** Where a refused receivables file is and goes: the company's error folder, with a report beside it. */
interface RefusedFile {
  deps: ReceivablesDeps;
  company: CompanyConfig;
  files: FileStore;
  source: string;
  name: string;
}

async function toError(
  { deps, company, files, source, name }: RefusedFile,
  ...problems: ReceivableProblem[]
): Promise<ReceivablesFileResult> {
  const dir = company.folders.error;
  await files.ensureDir(dir);
  const free = await freeName(files, dir, name, deps.clock.now());
  const movedTo = posix.join(dir, free);
  const report = `${movedTo}.errors.txt`;
  // For the company's accountant: in the company's language.
  await files.writeAtomic(report, receivableProblemsText(name, problems, company.locale ?? FALLBACK_LOCALE));
  await files.move(source, movedTo);
  return { company: company.id, name, outcome: 'rejected', receivables: 0, movedTo, report };
}
