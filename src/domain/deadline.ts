// The dead-man check: a job that must have completed for a company by a local time each day
// (alerts.nightlyBy, alerts.statementsBy). At each deadline, the job must have succeeded in
// the 24 hours before it; otherwise the deadline is missed until the job succeeds again.
import { addDays, dateInZone, type LocalDate } from './local-date.js';
import { startOfDay } from './zoned-time.js';

export interface Deadline {
  job: string;
  company: string;
  /** Local time of day, "HH:MM". */
  by: string;
  timeZone: string;
}

export interface DeadlineStatus extends Deadline {
  /** The latest deadline at or before now. */
  dueAt: Date;
  lastSuccess?: Date;
  missed: boolean;
}

const DAY_MS = 86_400_000;

/** The instant of `by` (HH:MM) on `day` in `timeZone`. */
function instantOf(day: LocalDate, by: string, timeZone: string): Date {
  const [hours, minutes] = by.split(':').map(Number) as [number, number];
  return new Date(startOfDay(day, timeZone).getTime() + (hours * 60 + minutes) * 60_000);
}

/** The latest occurrence of the deadline at or before `now`. */
export function latestDue(deadline: Pick<Deadline, 'by' | 'timeZone'>, now: Date): Date {
  const today = dateInZone(now, deadline.timeZone);
  const due = instantOf(today, deadline.by, deadline.timeZone);
  return due.getTime() <= now.getTime() ? due : instantOf(addDays(today, -1), deadline.by, deadline.timeZone);
}

export function deadlineStatus(deadline: Deadline, lastSuccess: Date | undefined, now: Date): DeadlineStatus {
  const dueAt = latestDue(deadline, now);
  const missed = lastSuccess === undefined || lastSuccess.getTime() < dueAt.getTime() - DAY_MS;
  return { ...deadline, dueAt, ...(lastSuccess ? { lastSuccess } : {}), missed };
}

/** The documented JSON form of a deadline's status (`settle health --json`, /healthz). */
export function deadlineView(d: DeadlineStatus): {
  job: string;
  company: string;
  by: string;
  timeZone: string;
  dueAt: string;
  lastSuccess: string | null;
  missed: boolean;
} {
  return {
    job: d.job,
    company: d.company,
    by: d.by,
    timeZone: d.timeZone,
    dueAt: d.dueAt.toISOString(),
    lastSuccess: d.lastSuccess?.toISOString() ?? null,
    missed: d.missed,
  };
}
