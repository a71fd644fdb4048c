// Business days of a bank calendar: weekends and the public holidays of a country, from the
// date-holidays library (e.g. "NO" knows Easter, Ascension, Whit Monday, 17 May, Christmas).
import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { addDays, isWeekend, type LocalDate } from './local-date.js';

export interface BusinessCalendar {
  readonly country: string;
  isBusinessDay(date: LocalDate): boolean;
  /** Name of the holiday on that date, if any. */
  holidayName(date: LocalDate): string | undefined;
  /** The date itself when it is a business day, else the next one. */
  nextBusinessDay(date: LocalDate): LocalDate;
  /** Adds n business days (n ≥ 0) to a date. */
  addBusinessDays(date: LocalDate, n: number): LocalDate;
}

const cache = new Map<string, BusinessCalendar>();

/**
 * date-holidays is loaded when the first calendar is asked for, not when this module is: most
 * commands never need one. Its CommonJS build, because its ES module build (every country's
 * rules in one 800 kB module) costs about twice the CPU to load (docs/performance.md).
 */
let holidaysClass: typeof Holidays | undefined;
function loadHolidays(): typeof Holidays {
  holidaysClass ??= createRequire(import.meta.url)('date-holidays') as typeof Holidays;
  return holidaysClass;
}

export function businessCalendar(country: string): BusinessCalendar {
  const key = country.toUpperCase();
  const known = cache.get(key);
  if (known) return known;
  const holidays = new (loadHolidays())(key, { types: ['public', 'bank'] });
  if (!holidays.getCountries()[key]) throw new RangeError(`no holiday calendar for country "${country}"`);
  const names = new Map<number, Map<LocalDate, string>>();
  const holidaysOf = (year: number): Map<LocalDate, string> => {
    let byDate = names.get(year);
    if (!byDate) {
      byDate = new Map();
      for (const h of holidays.getHolidays(year)) {
        if (h.type === 'public' || h.type === 'bank') byDate.set(h.date.slice(0, 10) as LocalDate, h.name);
      }
      names.set(year, byDate);
    }
    return byDate;
  };
  const calendar: BusinessCalendar = {
    country: key,
    holidayName: (date) => holidaysOf(Number(date.slice(0, 4))).get(date),
    isBusinessDay: (date) => !isWeekend(date) && calendar.holidayName(date) === undefined,
    nextBusinessDay(date) {
      let d = date;
      while (!calendar.isBusinessDay(d)) d = addDays(d, 1);
      return d;
    },
    addBusinessDays(date, n) {
      let d = date;
      for (let left = n; left > 0;) {
        d = addDays(d, 1);
        if (calendar.isBusinessDay(d)) left--;
      }
      return d;
    },
  };
  cache.set(key, calendar);
  return calendar;
}
