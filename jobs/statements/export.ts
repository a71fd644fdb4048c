// The export job: per company, account and complete booking day (or per run, by config), the
// statement files in the configured formats, written atomically into the company's statements
// folder. Each day is exported once per format; the export record is committed after the write,
// so a crash in between re-writes the same bytes on the next run. A day whose continuity broke
// (gap or mismatch) is withheld together with every later day of the account, and reported;
// an explicit export (`settle run export --account ID --from D --to D`) writes what the bank
// reported anyway, with the break still on record. See docs/statements.md. What to write is
// planned in statements/pending-plan.ts, what is read of a group of accounts for it in
// statements/group-reads.ts, how a period is written in statements/write-period.ts.
import type { CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import { SettleError } from '../../src/domain/errors.js';
import { addDays, today, type LocalDate } from '../../src/domain/local-date.js';
import type { ExportFloor, StoredAccount, StoredExport } from '../../src/store/index.js';
import { removeStaleParts } from '../inbox/index.js';
import { underAccountClaim, underAccountClaims, withAccountClaims } from './account-units.js';
import type { AccountExport, ExplicitExport, ExportResult, ExportStatementsDeps } from './export-types.js';
import {
  deliveredOf,
  readAccounts,
  readLedgers,
  type AccountRead,
  type AccountWork,
  type Check,
  type Ledger,
} from './group-reads.js';
import { nextFloor, planPending, type PendingInput } from './pending-plan.js';
import { overlapStart, periodDays, periodsOfRun, settledBefore, statementDays } from './periods.js';
import { exportUnits } from './render.js';
import {
  preparePeriods,
  recordWritten,
  renderPeriod,
  writePeriod,
  type ReadAhead,
  type WrittenPeriod,
} from './write-period.js';

export type {
  ChangedExport,
  ExplicitExport,
  ExportedFile,
  ExportResult,
  ExportStatementsDeps,
  WithheldDay,
} from './export-types.js';

export async function runExportStatements(
  deps: ExportStatementsDeps,
  companies: readonly CompanyConfig[],
  explicit?: ExplicitExport,
): Promise<ExportResult> {
  const result: ExportResult = { files: [], withheld: [], changed: [] };
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
    const ids = accounts.map((a) => a.id);
    const units = exportUnits(company.statements);
    await withAccountClaims(deps.units, 'export', company.id, ids, async () => {
      if (explicit !== undefined) {
        for (const account of accounts)
          await underAccountClaim(deps.units, { job: 'export', company: company.id, account: account.id }, async () => {
            for (const unit of units)
              await exportExplicit({ deps, company, fileStore, account, unit, result }, explicit);
          });
        return;
      }
      // Where each account's automatic export starts looking, for all accounts in one read.
      const floors = await deps.exportFloors.readAll(
        ids,
        units.map((u) => u.exportFormat),
      );
      const together = Math.max(1, deps.accountsReadTogether ?? ACCOUNTS_READ_TOGETHER);
      for (let at = 0; at < accounts.length; at += together) {
        const group = accounts.slice(at, at + together);
        await underAccountClaims(
          deps.units,
          { job: 'export', company: company.id },
          group.map((a) => a.id),
          async (claimed) => {
            const mine = group.filter((a) => claimed.includes(a.id));
            const targets = new Map<string, AccountExport[]>(
              mine.map((account) => [
                account.id,
                units.map((unit): AccountExport => ({ deps, company, fileStore, account, unit, result })),
              ]),
            );
            if (targets.size > 0) await exportGroup(deps, company, targets, { lastComplete, floors, result });
          },
        );
      }
    });
  }
  if (explicit !== undefined && !matched) {
    throw new SettleError(
      'ERR_STATEMENT_ACCOUNT_UNKNOWN',
      `no fetched account "${explicit.account}" in the selected companies (run \`settle run fetch\` first, or check the id or IBAN)`,
    );
  }
  return result;
}

function matchesAccount(account: StoredAccount, wanted: string): boolean {
  if (account.id === wanted) return true;
  return account.iban !== undefined && normalizeIban(account.iban) === normalizeIban(wanted);
}

/**
 * Accounts whose statements are read and written as a group: their ledgers, days, bookings and
 * legal numbers in a few reads for all of them, not ten an account, while what is kept in memory
 * at once stays a few accounts' worth (a first night reads a month of bookings).
 */
const ACCOUNTS_READ_TOGETHER = 8;

/**
 * A floor a few days low costs reading those days again; raising it costs a write per account
 * and format. The fetch lowers it to its window every night (a checked day is written again),
 * so it is raised when it would move by a week or more: the first night, or after a break.
 */
const FLOOR_STEP_DAYS = 7;

/** Raises the floor after a run when it would move far enough (refused when a fetch wrote days meanwhile). */
async function raiseFloor(
  { deps, account, unit }: AccountExport,
  ledger: Ledger,
  input: PendingInput,
  written: readonly WrittenPeriod[],
  lastComplete: LocalDate,
): Promise<void> {
  const delivered = [...ledger.exported, ...written.map((w) => w.input.period)];
  const next = nextFloor(input, delivered, { from: ledger.from, lastComplete });
  if (next >= addDays(ledger.floor.fromDay, FLOOR_STEP_DAYS))
    await deps.exportFloors.raise(account.id, unit.exportFormat, ledger.floor, next);
}

/** What the plan of a format's pending periods starts from (statements/pending-plan.ts). */
function pendingInput({ company, unit }: AccountExport, lastComplete: LocalDate, ledger: Ledger): PendingInput {
  const { exported, numbered } = ledger;
  return {
    days: ledger.days,
    exported,
    numbered,
    settled: settledBefore(company, unit, exported, lastComplete),
    // A bank sends a statement for a day without entries too, so an importer that expects one
    // per day sees no gap; `statements.emptyDays: false` leaves such days out. A notification
    // only ever tells of bookings: a day without any has none to tell.
    skipEmpty: unit.notification !== undefined || !company.statements.emptyDays,
    perRun: periodsOfRun(company, unit),
  };
}

/**
 * The automatic export of a group of accounts, each under this process's claim: what each format
 * delivered and numbered, and the accounts' checked days, bookings and legal numbers, read for
 * all of them together and once for the check and the plan of all their formats (the check
 * writes nothing, and what each format checks and writes is planned before anything is read for
 * it); the delivered periods checked; the pending statements' legal numbers given in one insert;
 * each account's periods written in order, and all the files recorded together (one commit),
 * also when a later write fails: a crash before that re-writes the same bytes. The floors rise
 * only after the record.
 */
async function exportGroup(
  deps: ExportStatementsDeps,
  company: CompanyConfig,
  targets: ReadonlyMap<string, readonly AccountExport[]>,
  {
    lastComplete,
    floors,
    result,
  }: {
    lastComplete: LocalDate;
    floors: ReadonlyMap<string, ReadonlyMap<string, ExportFloor>>;
    result: ExportResult;
  },
): Promise<void> {
  const ledgers = await readLedgers(deps, company, targets, lastComplete, floors);
  const work = new Map<string, AccountWork[]>(
    [...targets].map(([id, list]) => [
      id,
      list.map((target, i) => {
        const ledger = ledgers.get(id)![i]!;
        const input = pendingInput(target, lastComplete, ledger);
        return { target, ledger, check: checkOf(target, lastComplete, ledger), input, plan: planPending(input) };
      }),
    ]),
  );
  const reads = await readAccounts(deps, work);
  const delivered = await deliveredOf(deps, work);
  for (const [id, list] of work)
    for (const [i, { target, ledger, check }] of list.entries())
      await verifyExported(target, ledger, check, reads.get(id)!, delivered[i]!.get(id));
  await numberStatements(deps, work, reads);
  const written: WrittenPeriod[] = [];
  const raises: (() => Promise<void>)[] = [];
  try {
    for (const [id, list] of work)
      for (const item of list) {
        const own = await writePending(item, reads.get(id)!, written);
        raises.push(() => raiseFloor(item.target, item.ledger, item.input, own, lastComplete));
      }
  } finally {
    // One by one: an explicit re-export of years writes a file per account and day.
    for (const file of await recordWritten(deps, written, { firsts: true })) result.files.push(file);
  }
  for (const raise of raises) await raise();
}

/**
 * The legal numbers of the statements the plans will write (their first days), those they have
 * and the next of their year for the others: one read and one insert for the group, added to
 * each account's read. A notification carries none.
 */
async function numberStatements(
  deps: ExportStatementsDeps,
  work: ReadonlyMap<string, readonly AccountWork[]>,
  reads: ReadonlyMap<string, AccountRead>,
): Promise<void> {
  const wanted = new Map<string, { days: LocalDate[]; known: ReadonlyMap<LocalDate, number> }>();
  for (const [id, list] of work) {
    const days = list
      .filter((w) => w.target.unit.notification === undefined)
      .flatMap((w) => w.plan.periods.map((period) => period[0]!.day));
    if (days.length > 0) wanted.set(id, { days, known: reads.get(id)!.numbers });
  }
  if (wanted.size === 0) return;
  for (const [id, numbers] of await deps.legalSequence.assignAllOf(wanted))
    for (const [day, n] of numbers) reads.get(id)!.numbers.set(day, n);
}

/**
 * A format's pending periods (statements/pending-plan.ts) of one account, written in order; each
 * file is added to `written` once it is in place, for the group's record. What it wrote.
 */
async function writePending(
  { target, ledger, plan }: AccountWork,
  shared: AccountRead,
  written: WrittenPeriod[],
): Promise<WrittenPeriod[]> {
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const withhold = (day: LocalDate, reason: string) =>
    result.withheld.push({ company: company.id, accountId: account.id, format: exportFormat, day, reason });
  if (plan.broken !== undefined) {
    const { day, continuity, finding } = plan.broken;
    withhold(
      day,
      `continuity ${continuity}: ${finding ?? 'see statement_days'}; this day and later days are withheld until the bank's figures agree or the day is exported explicitly`,
    );
    deps.logger.error('statement day withheld', {
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      day,
      continuity,
      finding,
    });
  }
  if (plan.changed !== undefined)
    withhold(
      plan.changed.day,
      `period ${plan.changed.period} was numbered for writing but its days have changed since; export it explicitly`,
    );
  if (plan.periods.length === 0) return [];
  // A statement takes its bookings and legal numbers from the account's read; a notification
  // carries no legal number.
  const read: ReadAhead = unit.notification === undefined ? shared : { booked: shared.booked, numbers: new Map() };
  const { ready, withheld: stopped } = await preparePeriods(target, plan.periods, {
    explicit: false,
    numbered: ledger.numbered,
    read,
  });
  const own: WrittenPeriod[] = [];
  for (const prepared of ready) {
    const file = await writePeriod(target, prepared, { explicit: false, read });
    own.push(file);
    written.push(file);
  }
  if (stopped !== undefined) withhold(stopped.day, stopped.reason);
  return own;
}

async function exportExplicit(target: AccountExport, explicit: ExplicitExport): Promise<void> {
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const days = await deps.days.list(account.id, explicit.from, explicit.to);
  for (let d = explicit.from; d <= explicit.to; d = addDays(d, 1)) {
    if (!days.some((x) => x.day === d))
      result.withheld.push({
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
  const groups = periodsOfRun(company, unit) ? [statementDays(days)] : days.map((d) => [d]);
  // A period keeps the number it was given; one never numbered takes the next.
  const numbered = await deps.exports.numberedPeriods(exportFormat, account.id);
  const { ready } = await preparePeriods(target, groups, { explicit: true, numbered });
  for (const prepared of ready) {
    const written = await writePeriod(target, prepared, { explicit: true });
    result.files.push(...(await recordWritten(deps, [written], { firsts: false })));
  }
}

function checkOf({ company }: AccountExport, lastComplete: LocalDate, ledger: Ledger): Check | undefined {
  const since = overlapStart(company, lastComplete);
  const periods = ledger.exported.filter((period) => periodDays(period)[1] >= since);
  if (periods.length === 0) return undefined;
  const from = periods.map((period) => periodDays(period)[0]).reduce((a, b) => (a < b ? a : b));
  const to = periods.map((period) => periodDays(period)[1]).reduce((a, b) => (a > b ? a : b));
  return { periods, from, to };
}

/**
 * Bookings can arrive late, dated on a day already delivered: the fetch window (watermark −
 * overlap) re-reads them, so the statements of that window are built again and compared with
 * the SHA-256 of what was delivered. A difference is reported, never silently re-written: the
 * ERP may have imported the old file, and a person decides (explicit export).
 */
async function verifyExported(
  target: AccountExport,
  ledger: Ledger,
  check: Check | undefined,
  read: AccountRead,
  delivered: ReadonlyMap<string, StoredExport> | undefined,
): Promise<void> {
  if (check === undefined) return;
  const { deps, company, account, unit, result } = target;
  const { exportFormat } = unit;
  const { periods: recent, from, to } = check;
  // The days read for the plan hold the window unless a run period reaches back before them.
  const stored = from >= ledger.from ? ledger.days : await deps.days.list(account.id, from, to);
  // A statement takes its bookings and legal number from the account's read; a notification
  // reads its day's bookings itself.
  const shared = unit.notification === undefined ? { read } : {};
  for (const period of recent) {
    const [first, last] = periodDays(period);
    const days = statementDays(stored.filter((d) => d.day >= first && d.day <= last));
    const file = delivered?.get(period);
    const sequenceNumber = ledger.numbered.get(period)?.number;
    if (days.length === 0 || file?.sha256 === undefined || sequenceNumber === undefined) continue;
    const rendered = await renderPeriod(deps, {
      company,
      account,
      unit,
      days,
      sequenceNumber,
      numbering: 'find',
      ...shared,
    });
    if (rendered.sha256 === file.sha256) continue;
    const reason = `the bank's data for ${period} changed after the statement was delivered (now ${rendered.entryCount} entries, delivered ${file.entryCount}); check it and re-export explicitly`;
    result.changed.push({
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      period,
      fileName: file.fileName,
      reason,
    });
    deps.logger.error('delivered statement changed at the bank', {
      company: company.id,
      accountId: account.id,
      format: exportFormat,
      period,
      entries: rendered.entryCount,
      deliveredEntries: file.entryCount,
    });
  }
}
