// Business days of a bank calendar: weekends and the public holidays of a country, from the
// date-holidays library (e.g. "NO" knows Easter, Ascension, Whit Monday, 17 May, Christmas), read
// as data from the table the build wrote where it covers the country and year (holiday-table.ts).
import { createRequire } from 'node:module';
import type Holidays from 'date-holidays';
import { readHolidayTable, type HolidayTable } from './holiday-table.js';
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

/** `tableDir`: where the holiday tables are (the build's, beside the compiled module, unless a test says). */
export function businessCalendar(country: string, tableDir?: URL): BusinessCalendar {
  const key = country.toUpperCase();
  const known = tableDir === undefined ? cache.get(key) : undefined;
  if (known) return known;
  const table: HolidayTable | undefined = readHolidayTable(key, tableDir);
  // The library only when a year is asked that the table does not hold (or there is no table).
  let library: Holidays | undefined;
  const fromLibrary = (): Holidays => {
    if (library === undefined) {
      library = new (loadHolidays())(key, { types: ['public', 'bank'] });
      if (!library.getCountries()[key]) throw new RangeError(`no holiday calendar for country "${country}"`);
    }
    return library;
  };
  if (table === undefined) fromLibrary();
  const names = new Map<number, Map<LocalDate, string>>();
  const holidaysOf = (year: number): Map<LocalDate, string> => {
    let byDate = names.get(year);
    if (!byDate) {
      byDate = new Map();
      const listed = table?.years[year];
      if (listed !== undefined) {
        for (const [date, name] of listed) byDate.set(date as LocalDate, name);
      } else {
        for (const h of fromLibrary().getHolidays(year)) {
          if (h.type === 'public' || h.type === 'bank') byDate.set(h.date.slice(0, 10) as LocalDate, h.name);
        }
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
  if (tableDir === undefined) cache.set(key, calendar);
  return calendar;
}
