// The export job: per company, account and complete booking day (or per run, by config), the
// statement files in the configured formats, written atomically into the company's statements
// folder. Each day is exported once per format; the export record is committed after the write,
// so a crash in between re-writes the same bytes on the next run. A day whose continuity broke
// (gap or mismatch) is held back together with every later day of the account, and reported;
// an explicit export (`settle run export --account ID --from D --to D`) writes what the bank
// reported anyway, with the break still on record. See docs/statements.md.
import { posix } from 'node:path';
import type { CompanyConfig } from '../src/config/index.js';
import { normalizeIban } from '../src/domain/account-id.js';
import type { Clock } from '../src/domain/clock.js';
import { SettleError } from '../src/domain/errors.js';
import { hasErrors, type Issue } from '../src/domain/issue.js';
import { addDays, today, type LocalDate } from '../src/domain/local-date.js';
import type { Logger } from '../src/log/index.js';
import type { ExportInput, ExportRepository, LegalSequenceRepository, PaymentRepository } from '../src/store/index.js';
import type { StatementDay, StatementDayRepository } from '../src/store/index.js';
import type { StatementRepository, StoredAccount, StoredTransaction, UnitClaims } from '../src/store/index.js';
import type { FileStore } from '../src/transport/index.js';
import { buildStatement } from './statements/build-statement.js';
import { buildNotification } from './statements/build-notification.js';
import type { OwnPaymentSource } from './statements/own-payments.js';
import {
  exportUnits,
  renderNotification,
  renderStatement,
  type ExportUnit,
  type Rendered,
} from './statements/render.js';
import { removeStaleParts } from './part-leftovers.js';
import { underAccountClaim } from './statements/account-units.js';

export interface ExportStatementsDeps {
  statements: StatementRepository;
  days: StatementDayRepository;
  exports: ExportRepository;
  /** settle's own payments, whose ids the statements quote. */
  payments: PaymentRepository;
  legalSequence: LegalSequenceRepository;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** settle's own payments behind the booked debits: needed when camt.054 debit notifications are configured. */
  ownPayments?: OwnPaymentSource;
  /** Claims per account (job `export`), so processes running at once share the accounts; held ones are skipped. */
  units?: UnitClaims;
}

/** An explicit (re-)export of an account's days, whatever was exported before. */
export interface ExplicitExport {
  /** The bank's account id or the account's IBAN. */
  account: string;
  from: LocalDate;
  to: LocalDate;
}

export interface ExportedFile {
  company: string;
  accountId: string;
  format: string;
  period: string;
  /** Relative to the company's root. */
  path: string;
  entries: number;
  sequenceNumber: number;
  /** Statements only (camt.053, CSV): a camt.054 notification has no legal sequence number. */
  legalSequenceNumber?: number;
  /** 1 for the first write of the period; higher for explicit re-exports. */
  version: number;
  explicit: boolean;
}

export interface HeldDay {
  company: string;
  accountId: string;
  format: string;
  day: LocalDate;
  reason: string;
}

/** An exported period whose statement, built again from today's data, is no longer the file delivered. */
export interface ChangedExport {
  company: string;
  accountId: string;
  format: string;
  period: string;
  fileName: string;
  reason: string;
}

export interface ExportResult {
  files: ExportedFile[];
  held: HeldDay[];
  /** Delivered statements the bank has changed since (a late booking): re-export them explicitly. */
  changed: ChangedExport[];
}

const EARLIEST = '0001-01-01' as LocalDate;

export async function runExportStatements(
  deps: ExportStatementsDeps,
  companies: readonly CompanyConfig[],
  explicit?: ExplicitExport,
): Promise<ExportResult> {
  const result: ExportResult = { files: [], held: [], changed: [] };
  if (explicit !== undefined && explicit.from > explicit.to) {
    throw new SettleError('ERR_STATEMENT_EXPORT_RANGE', `--from ${explicit.from} is after --to ${explicit.to}`);
  }
  const lastComplete = addDays(today(deps.clock, deps.timeZone), -1);
  let matched = false;
  for (const company of companies) {
    let accounts = await deps.statements.listAccounts(company.id);
    if (explicit !== undefined) accounts = accounts.filter((a) => matchesAccount(a, explicit.account));
    if (accounts.length === 0) continue;
    matched = true;
    const fileStore = await deps.fileStore(company);
    await fileStore.ensureDir(company.folders.statements);
    await removeStaleParts(fileStore, company.folders.statements, deps.clock, deps.logger);
    for (const account of accounts) {
      await underAccountClaim(deps.units, { job: 'export', company: company.id, account: account.id }, async () => {
        for (const unit of exportUnits(company.statements)) {
          const target: AccountExport = { deps, company, fileStore, account, unit, result };
          if (explicit === undefined) {
            await verifyExported(target, lastComplete);
            await exportPending(target, lastComplete);
          } else await exportExplicit(target, explicit);
        }
      });
    }
  }
  if (explicit !== undefined && !matched) {
    throw new SettleError(
      'ERR_STATEMENT_ACCOUNT_UNKNOWN',
      `no fetched account "${explicit.account}" in the selected companies (run \`settle run fetch\` first, or check the id or IBAN)`,
    );
  }
  return result;
}

/** One account's documents of one kind (a statement format or a notification), and where the outcome is collected. */
interface AccountExport {
  deps: ExportStatementsDeps;
  company: CompanyConfig;
  fileStore: FileStore;
  account: StoredAccount;
  unit: ExportUnit;
  result: ExportResult;
}

function matchesAccount(account: StoredAccount, wanted: string): boolean {
  if (account.id === wanted) return true;
  return account.iban !== undefined && normalizeIban(account.iban) === normalizeIban(wanted);
}

/** The days a stored period covers: "2026-01-02" or "2026-01-02..2026-01-04". */
function periodDays(period: string): [LocalDate, LocalDate] {
  const [from, to = from] = period.split('..') as [LocalDate, LocalDate?];
  return [from, to];
}

/** The days a multi-day statement carries: those with entries, plus its first and last day. */
function statementDays(days: readonly StatementDay[]): StatementDay[] {
  return days.filter((d, i) => d.entryCount > 0 || i === 0 || i === days.length - 1);
}

function periodOf(days: readonly StatementDay[]): string {
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  return first === last ? first : `${first}..${last}`;
}

/**
 * The automatic export: every complete, consistent, not yet exported day, in order, up to the
 * first break. A period numbered but not recorded (a run stopped between numbering and
 * recording it, e.g. a crash after the write) is written again as it was — the same days under
 * the same name — and a new period never reaches across it or across a delivered one, so no day
 * is in two files, also when days completed in between (`period: run`).
 */
async function exportPending(target: AccountExport, lastComplete: LocalDate): Promise<void> {
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const exported = await deps.exports.exportedPeriods(exportFormat, account.id);
  const numbered = await deps.exports.sequenceNumbers(exportFormat, account.id);
  const covered = exported.map(periodDays);
  const recorded = new Set(exported);
  const unfinished = [...numbered.keys()].filter((p) => !recorded.has(p));
  const isExported = (day: LocalDate) => covered.some(([a, b]) => a <= day && day <= b);
  const groups: StatementDay[][] = [];
  const planned = new Map<string, StatementDay[]>();
  let open: StatementDay[] | undefined;
  let heldFrom: LocalDate | undefined;
  const settled = settledBefore(company, unit, covered, lastComplete);
  for (const day of await deps.days.list(account.id, EARLIEST, lastComplete)) {
    // A new run period ends where a delivered one begins.
    if (isExported(day.day)) open = undefined;
    if (isExported(day.day) || day.day < settled) continue;
    if (day.continuity === 'gap' || day.continuity === 'mismatch') {
      heldFrom = day.day;
      const reason = `continuity ${day.continuity}: ${day.finding ?? 'see statement_days'}; this day and later days are held back until the bank's figures agree or the day is exported explicitly`;
      result.held.push({ company: company.id, accountId: account.id, format: exportFormat, day: day.day, reason });
      deps.logger.error('statement day held back', {
        company: company.id,
        accountId: account.id,
        format: exportFormat,
        day: day.day,
        continuity: day.continuity,
        finding: day.finding,
      });
      break;
    }
    // A bank sends a statement for a day without entries too, so an importer that expects one
    // per day sees no gap; `statements.emptyDays: false` leaves such days out. A notification
    // only ever tells of bookings: a day without any has none to tell.
    if (day.entryCount === 0 && (unit.notification !== undefined || !company.statements.emptyDays)) continue;
    const key = unfinished.find((p) => periodDays(p)[0] <= day.day && day.day <= periodDays(p)[1]);
    if (key !== undefined) {
      open = undefined;
      if (!planned.has(key)) groups.push(planned.set(key, []).get(key)!);
      planned.get(key)!.push(day);
    } else if (!periodsOfRun(company, unit)) groups.push([day]);
    else if (open === undefined) groups.push((open = [day]));
    else open.push(day);
  }
  // An unfinished period is written again only whole and under its name; else it waits, and so
  // do the days after it.
  const keyOf = (g: StatementDay[]) => [...planned].find(([, days]) => days === g)?.[0];
  const stop = groups.findIndex((g) => {
    const key = keyOf(g);
    return key !== undefined && (periodOf(g) !== key || (heldFrom !== undefined && periodDays(key)[1] >= heldFrom));
  });
  const complete = stop < 0 ? groups : groups.slice(0, stop);
  const stopped = groups[stop];
  if (stopped !== undefined && periodOf(stopped) !== keyOf(stopped))
    result.held.push({
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      day: stopped[0]!.day,
      reason: `period ${keyOf(stopped)} was numbered for writing but its days have changed since; export it explicitly`,
    });
  if (complete.length === 0) return;
  const read = await readAhead(target, complete, numbered);
  // Each file is recorded after it is in place; the account's new periods are recorded together
  // (one commit), also when a later write fails: a crash before that re-writes the same bytes.
  const written: WrittenPeriod[] = [];
  try {
    for (const days of complete) {
      const sequenceNumber = read.sequenceNumbers.get(periodOf(days));
      const outcome = await writePeriod(target, { days, sequenceNumber, explicit: false, read });
      if ('empty' in outcome) continue;
      if ('held' in outcome) {
        result.held.push({
          company: company.id,
          accountId: account.id,
          format: exportFormat,
          day: days[0]!.day,
          reason: outcome.held,
        });
        return;
      }
      written.push(outcome);
    }
  } finally {
    result.files.push(...(await recordWritten(deps, written, { firsts: true })));
  }
}

async function exportExplicit(target: AccountExport, explicit: ExplicitExport): Promise<void> {
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const days = await deps.days.list(account.id, explicit.from, explicit.to);
  for (let d = explicit.from; d <= explicit.to; d = addDays(d, 1)) {
    if (!days.some((x) => x.day === d))
      result.held.push({
        company: company.id,
        accountId: account.id,
        format: exportFormat,
        day: d,
        reason: 'not complete: the bank has not reported its closing balance (or the day has not ended)',
      });
  }
  if (days.length === 0) return;
  for (const day of days) {
    if (day.continuity === 'gap' || day.continuity === 'mismatch') {
      deps.logger.warn('exporting a day with a continuity break on explicit request', {
        company: company.id,
        accountId: account.id,
        day: day.day,
        continuity: day.continuity,
        finding: day.finding,
      });
    }
  }
  const numbered = await deps.exports.sequenceNumbers(exportFormat, account.id);
  const groups = periodsOfRun(company, unit) ? [statementDays(days)] : days.map((d) => [d]);
  for (const group of groups) {
    // The number the period was given (or, for a period never numbered, the next one).
    const sequenceNumber = numbered.get(periodOf(group));
    const written = await writePeriod(target, { days: group, sequenceNumber, explicit: true });
    if ('empty' in written) continue;
    if ('held' in written)
      result.held.push({
        company: company.id,
        accountId: account.id,
        format: exportFormat,
        day: group[0]!.day,
        reason: written.held,
      });
    else result.files.push(...(await recordWritten(deps, [written], { firsts: false })));
  }
}

/**
 * Bookings can arrive late, dated on a day already delivered: the fetch window (watermark −
 * overlap) re-reads them, so the statements of that window are built again and compared with
 * the SHA-256 of what was delivered. A difference is reported, never silently re-written: the
 * ERP may have imported the old file, and a person decides (explicit export).
 */
async function verifyExported(target: AccountExport, lastComplete: LocalDate): Promise<void> {
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const since = addDays(lastComplete, -(Math.ceil(company.statements.overlap / 86_400_000) + 1));
  const periods = await deps.exports.exportedPeriods(exportFormat, account.id);
  const numbered = await deps.exports.sequenceNumbers(exportFormat, account.id);
  for (const period of periods) {
    const [from, to] = periodDays(period);
    if (to < since) continue;
    const days = statementDays(await deps.days.list(account.id, from, to));
    const delivered = (await deps.exports.find(exportFormat, account.id, period)).at(-1);
    const sequenceNumber = numbered.get(period);
    if (days.length === 0 || delivered?.sha256 === undefined || sequenceNumber === undefined) continue;
    const rendered = await renderPeriod(deps, { company, account, unit, days, sequenceNumber, numbering: 'find' });
    if (rendered.sha256 === delivered.sha256) continue;
    const reason = `the bank's data for ${period} changed after the statement was delivered (now ${rendered.entryCount} entries, delivered ${delivered.entryCount}); check it and re-export explicitly`;
    result.changed.push({
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      period,
      fileName: delivered.fileName,
      reason,
    });
    deps.logger.error('delivered statement changed at the bank', {
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      period,
      entries: rendered.entryCount,
      deliveredEntries: delivered.entryCount,
    });
  }
}

interface PeriodToWrite {
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
interface ReadAhead {
  booked: ReadonlyMap<LocalDate, readonly StoredTransaction[]>;
  numbers: ReadonlyMap<LocalDate, number>;
  sequenceNumbers: ReadonlyMap<string, number>;
}

async function readAhead(
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
interface WrittenPeriod {
  input: ExportInput;
  file: Omit<ExportedFile, 'version'>;
}

/** Records written files (new periods in one insert with `firsts`), logs them, and gives them their versions. */
async function recordWritten(
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

async function writePeriod(
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

/**
 * A notification day without a booking of its kind gets no file and no record, so it would be
 * built again on every run. Once a later day has its notification and the day lies before the
 * fetch's overlap window (where late bookings still arrive), nothing can fill it any more, and
 * it is no longer looked at. Statements have no such days: every day they cover is written.
 */
function settledBefore(
  company: CompanyConfig,
  unit: ExportUnit,
  covered: readonly (readonly [LocalDate, LocalDate])[],
  lastComplete: LocalDate,
): LocalDate {
  if (unit.notification === undefined) return EARLIEST;
  const lastWritten = covered.reduce<LocalDate>((max, [, to]) => (to > max ? to : max), EARLIEST);
  const windowStart = addDays(lastComplete, -(Math.ceil(company.statements.overlap / 86_400_000) + 1));
  return lastWritten < windowStart ? lastWritten : windowStart;
}

/** camt.054 is always per day; statements follow `statements.period`. */
function periodsOfRun(company: CompanyConfig, unit: ExportUnit): boolean {
  return unit.notification === undefined && company.statements.period === 'run';
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
async function renderPeriod(
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
