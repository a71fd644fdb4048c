// Writing an account's statement periods: their bookings read ahead for all pending periods,
// each document rendered in the unit's format and numbered with its content before any file is
// written, the files put in place atomically, and recorded in the export ledger. Used by the export job (jobs/statements/export.ts).
import { posix } from 'node:path';
import { normalizeIban } from '../../src/domain/account-id.js';
import { hasErrors, type Issue } from '../../src/domain/issue.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Logger } from '../../src/log/index.js';
import {
  highestSequenceNumber,
  type ExportInput,
  type NumberedPeriod,
  type StatementDay,
  type StoredAccount,
  type StoredTransaction,
} from '../../src/store/index.js';
import { SettleError } from '../../src/domain/errors.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { buildNotification } from './build-notification.js';
import { buildStatement } from './build-statement.js';
import type { AccountExport, ExportedFile, ExportStatementsDeps } from './export-types.js';
import { periodOf } from './periods.js';
import { renderNotification, renderStatement, type ExportUnit, type Rendered } from './render.js';

/**
 * An export's reads for many periods in one go — their bookings, and the legal sequence numbers
 * of the statements' first days — so a first night's month of history per account costs a few
 * queries, not several for every day (jobs/statements/export.ts reads them once per account).
 */
export interface ReadAhead {
  booked: ReadonlyMap<LocalDate, readonly StoredTransaction[]>;
  numbers: ReadonlyMap<LocalDate, number>;
}

/** A period rendered under its number, ready to be written. */
export interface PreparedPeriod {
  days: readonly StatementDay[];
  period: string;
  sequenceNumber: number;
  /** The document; left out of a big export once `KEPT_BYTES` are kept, and rendered again to write. */
  rendered?: RenderedPeriod;
  sha256: string;
}

type RenderedPeriod = Rendered & { legalSequenceNumber?: number };

/** Rendered documents an export keeps between numbering and writing them; beyond, a period is rendered again. */
const KEPT_BYTES = 64 * 1024 * 1024;

interface Preparation {
  /** Asked for by a person: written even when the writer reports errors or the content changed. */
  explicit: boolean;
  /** The account's numbered periods, as the caller read them (read again after a clash). */
  numbered: ReadonlyMap<string, NumberedPeriod>;
  read?: ReadAhead;
}

/**
 * Numbers and renders periods in order, before any is written. A period numbered before keeps
 * its number; a new one takes the next after the highest, and the new ones are numbered with the
 * SHA-256 of their files in one insert — the record a run that stops before recording its files
 * leaves behind. A period numbered with its content that would now be written differently (the
 * bank's data changed after a file that may have been delivered) is withheld with the periods after
 * it, as is one the writer reports errors for; a person decides (explicit export). A notification
 * without bookings of its kind gets no file and no number.
 */
export async function preparePeriods(
  target: AccountExport,
  periods: readonly (readonly StatementDay[])[],
  { explicit, numbered, read }: Preparation,
): Promise<{ ready: PreparedPeriod[]; withheld?: { day: LocalDate; reason: string } }> {
  const { deps, company, account, unit } = target;
  const { exportFormat } = unit;
  for (let attempt = 0; ; attempt++) {
    let highest = highestSequenceNumber([...numbered.values()].map((n) => n.number));
    let keptBytes = 0;
    const ready: PreparedPeriod[] = [];
    const fresh: { period: string; number: number; sha256: string }[] = [];
    let withheld: { day: LocalDate; reason: string } | undefined;
    for (const days of periods) {
      const period = periodOf(days);
      const known = numbered.get(period);
      const sequenceNumber = known?.number ?? highest + 1;
      const rendered = await renderToWrite(target, days, sequenceNumber, read);
      if (unit.notification !== undefined && rendered.entryCount === 0) continue;
      const reason = explicit ? undefined : withheldReason(exportFormat, period, known, rendered);
      if (reason !== undefined) {
        logIssues(deps.logger, rendered.issues, {
          company: company.id,
          accountId: account.id,
          format: exportFormat,
          period,
        });
        withheld = { day: days[0]!.day, reason };
        break;
      }
      if (known === undefined) fresh.push({ period, number: (highest = sequenceNumber), sha256: rendered.sha256 });
      const keep = keptBytes + rendered.bytes.length <= KEPT_BYTES;
      if (keep) keptBytes += rendered.bytes.length;
      ready.push({ days, period, sequenceNumber, sha256: rendered.sha256, ...(keep ? { rendered } : {}) });
    }
    if (await deps.exports.numberPeriods(exportFormat, account.id, fresh))
      return withheld === undefined ? { ready } : { ready, withheld };
    // Another export numbered periods of the account meanwhile: number again after them.
    if (attempt >= 20) throw new Error(`could not number the ${exportFormat} periods of ${account.id}`);
    numbered = await deps.exports.numberedPeriods(exportFormat, account.id);
  }
}

function withheldReason(
  format: string,
  period: string,
  known: NumberedPeriod | undefined,
  rendered: RenderedPeriod,
): string | undefined {
  if (hasErrors(rendered.issues))
    return `the ${format} writer reported errors: ${rendered.issues
      .filter((i) => i.severity === 'error')
      .map((i) => i.message)
      .join('; ')}`;
  if (known?.sha256 !== undefined && known.sha256 !== rendered.sha256)
    return `period ${period} was written by a run that stopped before recording it, and the bank's data for it has changed since: the file the ERP may have imported differs from what would be written now; check it and export the period explicitly`;
  return undefined;
}

/** The period's document as it is to be written: numbered, its statement's legal number given. */
function renderToWrite(
  { deps, company, account, unit }: AccountExport,
  days: readonly StatementDay[],
  sequenceNumber: number,
  read: ReadAhead | undefined,
): Promise<RenderedPeriod> {
  return renderPeriod(deps, {
    company,
    account,
    unit,
    days,
    sequenceNumber,
    numbering: 'assign',
    ...(read === undefined ? {} : { read }),
  });
}

/** A file in place, not yet in the export ledger. */
export interface WrittenPeriod {
  input: ExportInput;
  file: Omit<ExportedFile, 'version'>;
}

/** Records written files (new periods in one insert with `firsts`), logs them, and gives them their versions. */
export async function recordWritten(
  deps: ExportStatementsDeps,
  written: readonly WrittenPeriod[],
  { firsts }: { firsts: boolean },
): Promise<ExportedFile[]> {
  if (written.length === 0) return [];
  const inputs = written.map((w) => w.input);
  const records = firsts ? await deps.exports.recordFirsts(inputs) : [];
  if (!firsts) for (const input of inputs) records.push(await deps.exports.record(input));
  return written.map(({ file }, i) => {
    const { version } = records[i]!;
    deps.logger.info(file.explicit ? 'statement re-exported on request' : 'statement exported', {
      company: file.company,
      accountId: file.accountId,
      format: file.format,
      period: file.period,
      entries: file.entries,
      sequenceNumber: file.sequenceNumber,
      ...(file.legalSequenceNumber === undefined ? {} : { legalSequenceNumber: file.legalSequenceNumber }),
      version,
    });
    return { ...file, version };
  });
}

/** Puts a prepared period's file in place (atomically) under its name in the statements folder. */
export async function writePeriod(
  target: AccountExport,
  prepared: PreparedPeriod,
  { explicit, read }: { explicit: boolean; read?: ReadAhead },
): Promise<WrittenPeriod> {
  const { deps, company, fileStore, account, unit } = target;
  const { exportFormat, suffix } = unit;
  const { days, period, sequenceNumber } = prepared;
  const rendered = prepared.rendered ?? (await renderToWrite(target, days, sequenceNumber, read));
  // Rendered again from the same stored data within one export (under the account's claim).
  if (rendered.sha256 !== prepared.sha256)
    throw new SettleError(
      'ERR_STATEMENT_CHANGED_DURING_EXPORT',
      `the ${exportFormat} statement ${period} of ${account.id} changed while it was exported; run the export again`,
    );
  const { legalSequenceNumber } = rendered;
  logIssues(deps.logger, rendered.issues, { company: company.id, accountId: account.id, format: exportFormat, period });
  const iban = (account.iban === undefined ? account.id : normalizeIban(account.iban)).replace(/[^A-Za-z0-9]/g, '');
  const fileName = `${company.id}-${iban}-${period.replace('..', '_')}.${suffix}`;
  const path = posix.join(company.folders.statements, fileName);
  // The stand-ins the file uses map back before anyone can read it.
  await deps.shortIdentifiers?.remember(rendered.shortIdentifiers);
  await fileStore.writeAtomic(path, rendered.bytes);
  return {
    input: {
      company: company.id,
      format: exportFormat,
      subjectId: account.id,
      period,
      fileName,
      sha256: rendered.sha256,
      entryCount: rendered.entryCount,
    },
    file: {
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      period,
      path,
      entries: rendered.entryCount,
      sequenceNumber,
      ...(legalSequenceNumber === undefined ? {} : { legalSequenceNumber }),
      explicit,
    },
  };
}

interface PeriodToRender {
  company: CompanyConfig;
  account: StoredAccount;
  unit: ExportUnit;
  days: readonly StatementDay[];
  sequenceNumber: number;
  /**
   * A write assigns the statement's legal sequence number; a check of a delivered file looks up
   * the one it was given, so checking never takes a number.
   */
  numbering: 'assign' | 'find';
  read?: ReadAhead;
}

/** The period's document in the unit's format, built from the stored data. */
export async function renderPeriod(
  deps: ExportStatementsDeps,
  { company, account, unit, days, sequenceNumber, numbering, read }: PeriodToRender,
): Promise<Rendered & { legalSequenceNumber?: number }> {
  if (unit.notification !== undefined) {
    const notification = await buildNotification(deps, {
      kind: unit.notification.kind,
      account,
      company: company.id,
      ownerName: company.name,
      day: days[0]!,
      sequenceNumber,
      timeZone: deps.timeZone,
    });
    return renderNotification(notification, unit.notification.version);
  }
  // The day keeps its number when written again (another format, a re-export, a retry after a
  // withheld write), so the numbers the ERP sees stay gap-free and never change.
  const first = days[0]!.day;
  const known = read?.numbers.get(first);
  const legalSequenceNumber =
    numbering === 'find'
      ? read === undefined
        ? await deps.legalSequence.find(account.id, first)
        : known
      : (known ?? (await deps.legalSequence.assign(account.id, first)));
  const { statement } = await buildStatement(deps, {
    ...(read === undefined ? {} : { booked: read.booked }),
    account,
    company: company.id,
    ownerName: company.name,
    days,
    sequenceNumber,
    ...(legalSequenceNumber === undefined ? {} : { legalSequenceNumber }),
    timeZone: deps.timeZone,
  });
  const rendered = await renderStatement(statement, unit.statement!, company.statements.csv);
  return legalSequenceNumber === undefined ? rendered : { ...rendered, legalSequenceNumber };
}

function logIssues(logger: Logger, issues: readonly Issue[], meta: Record<string, string>): void {
  for (const issue of issues)
    logger[issue.severity === 'error' ? 'error' : 'warn'](`statement writer: ${issue.message}`, {
      ...meta,
      code: issue.code,
      field: issue.field,
    });
}
