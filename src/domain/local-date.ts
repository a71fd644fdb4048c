// Calendar dates without a time zone (execution, booking and value dates): "YYYY-MM-DD"
// strings, compared as strings, computed through UTC so no local zone can shift them.
import type { Clock } from './clock.js';

export type LocalDate = string & { readonly __brand: 'LocalDate' };

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLocalDate(text: string): text is LocalDate {
  const m = ISO.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

export function toLocalDate(text: string): LocalDate {
  if (!isLocalDate(text)) throw new RangeError(`"${text}" is not a calendar date (YYYY-MM-DD)`);
  return text;
}

/**
 * Parses a date in a profile's format. Tokens: YYYY, MM, DD, and any single separator
 * character between them (e.g. "DD.MM.YYYY", "YYYYMMDD"). Returns undefined when invalid.
 */
export function parseDate(text: string, format = 'YYYY-MM-DD'): LocalDate | undefined {
  const s = text.trim();
  if (s.length !== format.length) return undefined;
  let y = '',
    m = '',
    d = '';
  for (let i = 0; i < format.length; i++) {
    const f = format[i],
      c = s[i] ?? '';
    if (f === 'Y') y += c;
    else if (f === 'M') m += c;
    else if (f === 'D') d += c;
    else if (f !== c) return undefined;
  }
  if (!/^\d{4}$/.test(y) || !/^\d{2}$/.test(m) || !/^\d{2}$/.test(d)) return undefined;
  const candidate = `${y}-${m}-${d}`;
  return isLocalDate(candidate) ? candidate : undefined;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10) as LocalDate;
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: LocalDate): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function isWeekend(date: LocalDate): boolean {
  const d = dayOfWeek(date);
  return d === 0 || d === 6;
}

/** Days from a to b (b - a). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of an instant in an IANA time zone. */
export function dateInZone(instant: Date, timeZone: string): LocalDate {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(instant) as LocalDate;
}

export function today(clock: Clock, timeZone: string): LocalDate {
  return dateInZone(clock.now(), timeZone);
}

/** The date part of an ISO date-time ("2026-01-05T10:00:00Z" → "2026-01-05"), or the date itself. */
export function datePart(text: string): LocalDate | undefined {
  const candidate = text.slice(0, 10);
  return isLocalDate(candidate) ? candidate : undefined;
}
