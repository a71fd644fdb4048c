// The UTC instant at which a calendar day starts in an IANA time zone. Used for the statement's
// creation time, which must be a function of the day (not of the run) so that writing the same
// day again gives byte-identical files.
import { addDays, type LocalDate } from './local-date.js';
import { zonedParts } from './zoned-time.js';

function offsetMs(instant: number, timeZone: string): number {
  const p = zonedParts(new Date(instant), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** 00:00 of `day` in `timeZone`, as a Date. */
export function startOfDay(day: LocalDate, timeZone: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  // Two rounds settle a guess that lands on the other side of a DST change.
  let instant = guess - offsetMs(guess, timeZone);
  instant = guess - offsetMs(instant, timeZone);
  return new Date(instant);
}

/** 00:00 of the day after `day`: the moment the day's statement could first be complete. */
export function endOfDay(day: LocalDate, timeZone: string): Date {
  return startOfDay(addDays(day, 1), timeZone);
}
