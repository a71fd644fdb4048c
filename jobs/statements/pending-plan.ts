// Which periods the automatic export writes now: every complete, consistent, not yet exported
// day, in order, up to the first continuity break. A period numbered but not recorded (a run
// stopped between numbering it and recording its file, e.g. a crash after the write) is planned
// again as it was — the same days under the same name — and a new period never reaches across
// it or across a delivered one, so no day is in two files, also when days completed in between
// (`period: run`). Pure: the job reads, this decides, the job writes.
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import type { StatementDay } from '../../src/store/index.js';
import { periodDays, periodOf } from './periods.js';

export interface PendingInput {
  /** The account's complete days, in order. */
  days: readonly StatementDay[];
  /** The periods recorded as exported (any version). */
  exported: readonly string[];
  /** The periods given an ElctrncSeqNb: recorded ones, and any a stopped run left unrecorded. */
  numbered: ReadonlyMap<string, unknown>;
  /** Days before this are not looked at (settled notification days). */
  settled: LocalDate;
  /** A day without entries gets no file (`statements.emptyDays: false`, or a notification). */
  skipEmpty: boolean;
  /** Consecutive days go into one period (`statements.period: run`). */
  perRun: boolean;
}

export interface PendingPlan {
  /** The periods to write now, in order. */
  periods: StatementDay[][];
  /** The first day with a continuity break: it and every later day wait. */
  broken?: StatementDay;
  /** An unfinished period whose days have changed since it was numbered: it and the days after it wait. */
  changed?: { period: string; day: LocalDate };
}

export function planPending(input: PendingInput): PendingPlan {
  const covered = coveredDays(input.exported);
  const recorded = new Set(input.exported);
  const unfinished = [...input.numbered.keys()]
    .filter((p) => !recorded.has(p))
    .map((p): [string, LocalDate, LocalDate] => [p, ...periodDays(p)]);
  const isExported = (day: LocalDate) => covered.has(day);
  const periods: StatementDay[][] = [];
  // The days of each unfinished period, by its name, and the name each such group is written under.
  const byName = new Map<string, StatementDay[]>();
  const redone = new Map<StatementDay[], string>();
  let open: StatementDay[] | undefined;
  let broken: StatementDay | undefined;
  for (const day of input.days) {
    // A new run period ends where a delivered one begins.
    if (isExported(day.day)) open = undefined;
    if (isExported(day.day) || day.day < input.settled) continue;
    if (day.continuity === 'gap' || day.continuity === 'mismatch') {
      broken = day;
      break;
    }
    if (day.entryCount === 0 && input.skipEmpty) continue;
    const name = unfinished.find(([, from, to]) => from <= day.day && day.day <= to)?.[0];
    if (name !== undefined) {
      open = undefined;
      let days = byName.get(name);
      if (days === undefined) {
        periods.push((days = []));
        byName.set(name, days);
        redone.set(days, name);
      }
      days.push(day);
    } else if (!input.perRun) periods.push([day]);
    else if (open === undefined) periods.push((open = [day]));
    else open.push(day);
  }
  // An unfinished period is written again only whole and under its name, and not once a break
  // lies within it; else it waits, and so do the days after it.
  const stop = periods.findIndex((days) => {
    const name = redone.get(days);
    return (
      name !== undefined && (periodOf(days) !== name || (broken !== undefined && periodDays(name)[1] >= broken.day))
    );
  });
  const plan: PendingPlan = { periods: stop < 0 ? periods : periods.slice(0, stop) };
  if (broken !== undefined) plan.broken = broken;
  const stopped = periods[stop];
  const name = stopped === undefined ? undefined : redone.get(stopped);
  if (stopped !== undefined && name !== undefined && periodOf(stopped) !== name)
    plan.changed = { period: name, day: stopped[0]!.day };
  return plan;
}

/**
 * Where the next automatic export must start looking (the account's export floor,
 * src/store/export-floors.ts): the first day, from the settled day on, that no delivered period
 * covers and that would get a file — withheld behind a break or for the writer, or part of a
 * period numbered but never recorded — or the day after `lastComplete` when every day is done.
 * `delivered` is what was recorded before this run and by it; `input` holds the days from `from`.
 */
export function nextFloor(
  input: PendingInput,
  delivered: readonly string[],
  { from, lastComplete }: { from: LocalDate; lastComplete: LocalDate },
): LocalDate {
  const done = new Set(delivered);
  const covered = coveredDays(done);
  let floor = addDays(lastComplete, 1);
  for (const period of input.numbered.keys()) {
    const [first, last] = periodDays(period);
    if (!done.has(period) && last >= from && first < floor) floor = first;
  }
  const first = input.days.find(
    (d) => d.day >= input.settled && !covered.has(d.day) && !(d.entryCount === 0 && input.skipEmpty),
  );
  return first !== undefined && first.day < floor ? first.day : floor;
}

/**
 * Every day the periods cover, for a lookup per day: years of daily history would make a scan
 * of the periods for each day cost the square of the days.
 */
function coveredDays(periods: Iterable<string>): Set<LocalDate> {
  const covered = new Set<LocalDate>();
  for (const period of periods) {
    const [first, last] = periodDays(period);
    for (let day = first; day <= last; day = addDays(day, 1)) covered.add(day);
  }
  return covered;
}
