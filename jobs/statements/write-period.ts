// Writing one statement period of an account: its bookings read ahead for all pending periods,
// its document rendered in the unit's format, the file put in place atomically, and the written
// files recorded in the export ledger. Used by the export job (jobs/export-statements.ts).
import { posix } from 'node:path';
import { normalizeIban } from '../../src/domain/account-id.js';
import { hasErrors, type Issue } from '../../src/domain/issue.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Logger } from '../../src/log/index.js';
import type { ExportInput, StatementDay, StoredAccount, StoredTransaction } from '../../src/store/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { buildNotification } from './build-notification.js';
import { buildStatement } from './build-statement.js';
import type { AccountExport, ExportedFile, ExportStatementsDeps } from './export-types.js';
import { periodOf } from './periods.js';
import { renderNotification, renderStatement, type ExportUnit, type Rendered } from './render.js';

export interface PeriodToWrite {
  days: readonly StatementDay[];
  /** ElctrncSeqNb, if the period has one; else the next is given when the file is written. */
  sequenceNumber: number | undefined;
  /** Asked for by a person: written even when the writer reports errors, and logged as a re-export. */
  explicit: boolean;
  /** What the automatic export read for all its days at once (a period not exported before). */
  read?: ReadAhead;
}

/**
 * The automatic export's reads for all its pending days in one go — their bookings, and the
 * legal and electronic sequence numbers of the periods to write, given in day order as one
 * insert each — so a first night's month of history per account costs a few queries, not
 * several for every day. The statements' periods are numbered before any is written: that is
 * the record a re-run after a crash writes the same periods from.
 */
export interface ReadAhead {
  booked: ReadonlyMap<LocalDate, readonly StoredTransaction[]>;
  numbers: ReadonlyMap<LocalDate, number>;
  sequenceNumbers: ReadonlyMap<string, number>;
}

export async function readAhead(
  { deps, account, unit }: AccountExport,
  groups: readonly (readonly StatementDay[])[],
  numbered: ReadonlyMap<string, number>,
): Promise<ReadAhead> {
  const isStatement = unit.notification === undefined;
  return {
    booked: await deps.statements.bookedByDay(account.id, groups[0]![0]!.day, groups.at(-1)!.at(-1)!.day),
    // Only statements carry a legal sequence number; a camt.054 notification takes none.
    numbers: isStatement
      ? await deps.legalSequence.assignAll(
          account.id,
          groups.map((g) => g[0]!.day),
        )
      : new Map(),
    // A notification is numbered when written: a day without bookings of its kind takes none.
    sequenceNumbers: isStatement
      ? await deps.exports.assignSequenceNumbers(unit.exportFormat, account.id, groups.map(periodOf))
      : numbered,
  };
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

export async function writePeriod(
  target: AccountExport,
  { days, sequenceNumber, explicit, read }: PeriodToWrite,
): Promise<WrittenPeriod | { held: string } | { empty: true }> {
  const { deps, company, fileStore, account, unit } = target;
  const { exportFormat, suffix } = unit;
  const period = periodOf(days);
  const assignNumber = async () =>
    (await deps.exports.assignSequenceNumbers(exportFormat, account.id, [period])).get(period)!;
  const isStatement = unit.notification === undefined;
  // A statement is numbered before its write (what a crash before the record leaves behind); a
  // notification only once it has a booking to tell.
  let number = sequenceNumber ?? (isStatement ? await assignNumber() : undefined);
  const render = (n: number) =>
    renderPeriod(deps, {
      company,
      account,
      unit,
      days,
      sequenceNumber: n,
      numbering: 'assign',
      ...(read === undefined ? {} : { read }),
    });
  let rendered = await render(number ?? 0);
  // A notification of a day without bookings of its kind says nothing: no file, no record, no number.
  if (!isStatement && rendered.entryCount === 0) return { empty: true };
  if (number === undefined) rendered = await render((number = await assignNumber()));
  const { legalSequenceNumber } = rendered;
  const meta = { company: company.id, accountId: account.id, format: exportFormat, period };
  logIssues(deps.logger, rendered.issues, meta);
  if (hasErrors(rendered.issues) && !explicit)
    return {
      held: `the ${exportFormat} writer reported errors: ${rendered.issues
        .filter((i) => i.severity === 'error')
        .map((i) => i.message)
        .join('; ')}`,
    };
  const iban = (account.iban === undefined ? account.id : normalizeIban(account.iban)).replace(/[^A-Za-z0-9]/g, '');
  const fileName = `${company.id}-${iban}-${period.replace('..', '_')}.${suffix}`;
  const path = posix.join(company.folders.statements, fileName);
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
      sequenceNumber: number,
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
  // held write), so the numbers the ERP sees stay gap-free and never change.
  const first = days[0]!.day;
  const legalSequenceNumber =
    numbering === 'find'
      ? await deps.legalSequence.find(account.id, first)
      : (read?.numbers.get(first) ?? (await deps.legalSequence.assign(account.id, first)));
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
