// Sandbox time rules: the bank's calendar day is the day in Oslo; ISO 8601 durations for the
// control API. Everything here reads the injected clock, never the wall clock.
import { dateInZone, type LocalDate } from '../domain/local-date.js';

export const BANK_TIME_ZONE = 'Europe/Oslo';

export function bankToday(now: Date): LocalDate {
  return dateInZone(now, BANK_TIME_ZONE);
}

/** The instant a bank calendar day starts (midnight in Oslo), as epoch ms. */
export function startOfBankDay(date: LocalDate): number {
  // Oslo is UTC+1 or UTC+2; try both offsets and keep the one whose Oslo date is `date` at 00:00.
  for (const offsetHours of [1, 2]) {
    const candidate = Date.parse(`${date}T00:00:00Z`) - offsetHours * 3_600_000;
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: BANK_TIME_ZONE,
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(candidate));
    if (dateInZone(new Date(candidate), BANK_TIME_ZONE) === date && local === '00') return candidate;
  }
  return Date.parse(`${date}T00:00:00Z`) - 3_600_000;
}

/** "PT2H", "P1D", "P1DT30M", "PT0.5S" → milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
    text.trim().toUpperCase(),
  );
  if (!m || text.trim().length < 2 || /T$/.test(text.trim())) return undefined;
  const [, w, d, h, min, s] = m;
  const n = (v: string | undefined): number => (v === undefined ? 0 : Number(v));
  return Math.round(((((n(w) * 7 + n(d)) * 24 + n(h)) * 60 + n(min)) * 60 + n(s)) * 1000);
}
