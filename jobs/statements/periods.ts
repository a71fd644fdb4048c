// A statement period is one day ("2026-01-02") or a run of days ("2026-01-02..2026-01-04",
// `statements.period: run`). What the export job plans and writes by.
import type { CompanyConfig } from '../../src/config/index.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import { FIRST_DAY, type StatementDay } from '../../src/store/index.js';
import type { ExportUnit } from './render.js';

/** The days a stored period covers. */
export function periodDays(period: string): [LocalDate, LocalDate] {
  const [from, to = from] = period.split('..') as [LocalDate, LocalDate?];
  return [from, to];
}

/** The days a multi-day statement carries: those with entries, plus its first and last day. */
export function statementDays(days: readonly StatementDay[]): StatementDay[] {
  return days.filter((d, i) => d.entryCount > 0 || i === 0 || i === days.length - 1);
}

export function periodOf(days: readonly StatementDay[]): string {
  const first = days[0]!.day;
  const last = days.at(-1)!.day;
  return first === last ? first : `${first}..${last}`;
}

/** camt.054 is always per day; statements follow `statements.period`. */
export function periodsOfRun(company: CompanyConfig, unit: ExportUnit): boolean {
  return unit.notification === undefined && company.statements.period === 'run';
}

/**
 * A notification day without a booking of its kind gets no file and no record, so it would be
 * built again on every run. Once a later day has its notification and the day lies before the
 * fetch's overlap window (where late bookings still arrive), nothing can fill it any more, and
 * it is no longer looked at. Statements have no such days: every day they cover is written.
 */
export function settledBefore(
  company: CompanyConfig,
  unit: ExportUnit,
  exported: readonly string[],
  lastComplete: LocalDate,
): LocalDate {
  if (unit.notification === undefined) return FIRST_DAY;
  const lastWritten = exported.reduce<LocalDate>((max, p) => {
    const to = periodDays(p)[1];
    return to > max ? to : max;
  }, FIRST_DAY);
  const windowStart = overlapStart(company, lastComplete);
  return lastWritten < windowStart ? lastWritten : windowStart;
}

/**
 * The first day of the fetch's overlap window (and the day before it), where late bookings can
 * still change a day already delivered: the export checks its delivered periods from here on.
 */
export function overlapStart(company: CompanyConfig, lastComplete: LocalDate): LocalDate {
  return addDays(lastComplete, -(Math.ceil(company.statements.overlap / 86_400_000) + 1));
}
