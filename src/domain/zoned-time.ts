// Instants as wall-clock time in a named time zone: the parts (for offsets and day starts), the
// form people read, and the UTC instants at which a calendar day starts and ends there.
import { addDays, type LocalDate } from './local-date.js';

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const partFormats = new Map<string, Intl.DateTimeFormat>();

export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

export interface FormatInZoneOptions {
  /**
   * How the zone is named after the time: `name` (default) gives the IANA name ("2026-01-12
   * 09:00 Europe/Oslo"), unambiguous for approval links and deadlines; `abbreviation` gives the
   * short form of the reports ("2026-01-08 04:00 GMT+1").
   */
  zone?: 'name' | 'abbreviation';
}

/** An instant to the minute, in the zone's wall-clock time, followed by the zone. */
export function formatInZone(instant: Date, timeZone: string, options: FormatInZoneOptions = {}): string {
  const p = zonedParts(instant, timeZone);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)} ${zoneLabel(instant, timeZone, options)}`;
}

/** The zone as formatInZone names it: its IANA name, or its short name at that instant. */
export function zoneLabel(instant: Date, timeZone: string, options: FormatInZoneOptions = {}): string {
  return options.zone === 'abbreviation' ? zoneAbbreviation(instant, timeZone) : timeZone;
}

const abbreviations = new Map<string, Intl.DateTimeFormat>();

/** The zone's short name at that instant, summer time included ("GMT+1", "GMT+2", "EST", …). */
function zoneAbbreviation(instant: Date, timeZone: string): string {
  let format = abbreviations.get(timeZone);
  if (!format) {
    // The reports have always named the zone as the en-CA locale does; a change would change them.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, timeZoneName: 'short' });
    abbreviations.set(timeZone, format);
  }
  return format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

function offsetMs(instant: number, timeZone: string): number {
  const p = zonedParts(new Date(instant), timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * 00:00 of `day` in `timeZone`, as a Date. The statement's creation time is a function of the day
 * (not of the run), so writing the same day again gives byte-identical files.
 */
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
