// What the export reads of a group of a company's accounts (jobs/statements/export.ts): each
// format's ledger — what it delivered and numbered — and the accounts' checked days, bookings,
// legal numbers and the delivered files their checks compare with, in one read of each kind for
// the group, where accounts that share a floor, window or range of days share the read.
import type { CompanyConfig } from '../../src/config/index.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import type {
  ExportFloor,
  NumberedPeriod,
  StatementDay,
  StoredExport,
  StoredTransaction,
} from '../../src/store/index.js';
import type { AccountExport, ExportStatementsDeps } from './export-types.js';
import type { PendingInput, PendingPlan } from './pending-plan.js';
import { overlapStart, periodDays } from './periods.js';
import type { ReadAhead } from './write-period.js';

/**
 * An account's periods in a format from the first day the export looks at: recorded as exported
 * (any version), and given an ElctrncSeqNb (with the highest-numbered one, wherever it lies).
 */
export interface Ledger {
  /** The account's export floor as read: every day before it is delivered or needs no file. */
  floor: ExportFloor;
  /** The first day looked at: the floor, or the start of the window delivered periods are checked in. */
  from: LocalDate;
  exported: readonly string[];
  numbered: ReadonlyMap<string, NumberedPeriod>;
  /** The account's checked days from `from` to the last complete day. */
  days: readonly StatementDay[];
}

/** The delivered periods a run checks (those reaching into the overlap window) and the days they span. */
export interface Check {
  periods: readonly string[];
  from: LocalDate;
  to: LocalDate;
}

/**
 * An account's bookings and the legal numbers of its statements' first days, for the checks and
 * plans of all its formats, read once: the bookings of the days they span (ranges close together
 * are one read: the check's window and the days after it), the numbers those days already have.
 * The plans add the numbers they give, so `numbers` is the account's as far as this run knows.
 */
export type AccountRead = ReadAhead & { numbers: Map<LocalDate, number> };

/** Day ranges this close or closer are read as one. */
const READ_GAP_DAYS = 7;

/** An account's format as the export checks and plans it. */
export interface AccountWork {
  target: AccountExport;
  ledger: Ledger;
  check: Check | undefined;
  input: PendingInput;
  plan: PendingPlan;
}

/** Accounts grouped by a key (a day, a range): the ones that share it are read together. */
function groupedBy<K>(ids: Iterable<string>, keyOf: (id: string) => K): Map<K, string[]> {
  const groups = new Map<K, string[]>();
  for (const id of ids) {
    const key = keyOf(id);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [id]);
    else group.push(id);
  }
  return groups;
}

/**
 * The ledgers of each account's formats (in the order of its targets): what each format
 * delivered and numbered from its own `from`, read for the accounts that share it together, and
 * the accounts' checked days, read from each one's earliest `from` for all its formats.
 */
export async function readLedgers(
  deps: ExportStatementsDeps,
  company: CompanyConfig,
  targets: ReadonlyMap<string, readonly AccountExport[]>,
  lastComplete: LocalDate,
  floors: ReadonlyMap<string, ReadonlyMap<string, ExportFloor>>,
): Promise<Map<string, Ledger[]>> {
  const window = overlapStart(company, lastComplete);
  const heads = new Map<string, { floor: ExportFloor; from: LocalDate }[]>();
  for (const [id, list] of targets)
    heads.set(
      id,
      list.map(({ unit }) => {
        const floor = floors.get(id)?.get(unit.exportFormat);
        if (floor === undefined) throw new Error(`no ${unit.exportFormat} export floor for ${id}`);
        return { floor, from: floor.fromDay < window ? floor.fromDay : window };
      }),
    );
  const units = [...targets.values()][0]?.map((t) => t.unit) ?? [];
  const exported = units.map(() => new Map<string, string[]>());
  const numbered = units.map(() => new Map<string, Map<string, NumberedPeriod>>());
  for (const [i, { exportFormat }] of units.entries())
    for (const [from, ids] of groupedBy(heads.keys(), (id) => heads.get(id)![i]!.from)) {
      for (const [id, periods] of await deps.exports.exportedPeriodsOf(exportFormat, ids, from))
        exported[i]!.set(id, periods);
      for (const [id, periods] of await deps.exports.numberedPeriodsOf(exportFormat, ids, from))
        numbered[i]!.set(id, periods);
    }
  const earliestOf = (id: string) =>
    heads
      .get(id)!
      .map((h) => h.from)
      .reduce((a, b) => (a < b ? a : b));
  const days = new Map<string, readonly StatementDay[]>();
  for (const [earliest, ids] of groupedBy(heads.keys(), earliestOf))
    for (const [id, list] of await deps.days.listOf(ids, earliest, lastComplete)) days.set(id, list);
  return new Map(
    [...heads].map(([id, list]) => [
      id,
      list.map(({ floor, from }, i) => ({
        floor,
        from,
        exported: exported[i]!.get(id) ?? [],
        numbered: numbered[i]!.get(id) ?? new Map(),
        days: (days.get(id) ?? []).filter((d) => d.day >= from),
      })),
    ]),
  );
}

/**
 * The latest delivered file of each period the accounts' checks look at, per format (in the
 * order of the accounts' targets): one read a format for the group.
 */
export async function deliveredOf(
  deps: ExportStatementsDeps,
  work: ReadonlyMap<string, readonly AccountWork[]>,
): Promise<Map<string, Map<string, StoredExport>>[]> {
  const units = [...work.values()][0]?.map((w) => w.target.unit) ?? [];
  const out: Map<string, Map<string, StoredExport>>[] = [];
  for (const [i, { exportFormat }] of units.entries()) {
    const wanted = new Map<string, string[]>();
    for (const [id, list] of work) {
      const periods = list[i]!.check?.periods;
      if (periods !== undefined && periods.length > 0) wanted.set(id, [...periods]);
    }
    out.push(
      wanted.size === 0
        ? new Map<string, Map<string, StoredExport>>()
        : await deps.exports.latestOfAll(exportFormat, wanted),
    );
  }
  return out;
}

/** Each account's bookings and legal numbers for the checks and plans of all its formats (AccountRead). */
export async function readAccounts(
  deps: ExportStatementsDeps,
  work: ReadonlyMap<string, readonly AccountWork[]>,
): Promise<Map<string, AccountRead>> {
  const ranges = new Map<string, [LocalDate, LocalDate][]>();
  const firsts = new Map<string, LocalDate[]>();
  for (const [id, list] of work) {
    const spans: [LocalDate, LocalDate][] = [];
    const days = new Set<LocalDate>();
    for (const { target, check, plan } of list) {
      // A notification carries no legal number and reads its day's bookings itself.
      if (target.unit.notification !== undefined) continue;
      if (check !== undefined) {
        spans.push([check.from, check.to]);
        for (const period of check.periods) days.add(periodDays(period)[0]);
      }
      if (plan.periods.length > 0) {
        spans.push([plan.periods[0]![0]!.day, plan.periods.at(-1)!.at(-1)!.day]);
        for (const period of plan.periods) days.add(period[0]!.day);
      }
    }
    ranges.set(id, joined(spans));
    firsts.set(id, [...days]);
  }
  const reads = new Map<
    string,
    { booked: Map<LocalDate, readonly StoredTransaction[]>; numbers: Map<LocalDate, number> }
  >([...work.keys()].map((id) => [id, { booked: new Map(), numbers: new Map() }]));
  // Accounts whose ranges are the same (a company's, night after night) share each read.
  for (const ids of groupedBy(ranges.keys(), (id) => JSON.stringify(ranges.get(id))).values())
    for (const [from, to] of ranges.get(ids[0]!)!)
      for (const [id, byDay] of await deps.statements.bookedByDayOf(ids, from, to))
        for (const [day, list] of byDay) reads.get(id)!.booked.set(day, list);
  const wanted = new Map([...firsts].filter(([, days]) => days.length > 0));
  if (wanted.size > 0)
    for (const [id, found] of await deps.legalSequence.findAllOf(wanted))
      for (const [day, n] of found) reads.get(id)!.numbers.set(day, n);
  return reads;
}

/** Day ranges joined where they overlap or lie at most READ_GAP_DAYS apart. */
function joined(ranges: readonly (readonly [LocalDate, LocalDate])[]): [LocalDate, LocalDate][] {
  const out: [LocalDate, LocalDate][] = [];
  for (const [from, to] of [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const last = out.at(-1);
    if (last !== undefined && from <= addDays(last[1], READ_GAP_DAYS)) {
      if (to > last[1]) last[1] = to;
    } else out.push([from, to]);
  }
  return out;
}
