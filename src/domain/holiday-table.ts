// The holiday calendar as data: each country's public and bank holidays for a range of years,
// written by date-holidays at build time (scripts/holiday-table.mjs, run by `npm run build`) into
// dist/src/domain/holidays/<CC>.json. Loading date-holidays' rules engine costs about 95 ms of CPU
// a process (docs/decisions/0019-holidays-as-data.md); reading one country's table costs well
// under one. A country or year the table does not cover is asked of date-holidays, as before:
// the table changes what a calendar costs, never what it answers.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type Holidays from 'date-holidays';

/** The countries whose tables are built: the default calendar (NO) and the banks' countries around it. */
export const TABLE_COUNTRIES: readonly string[] = ['NO', 'SE', 'DK', 'FI', 'IS', 'DE', 'GB', 'NL', 'PL', 'FR', 'US'];
/** The years built: five years of bookkeeping back and twenty years ahead of 2026, and more. */
export const TABLE_YEARS = { first: 2015, last: 2045 } as const;

export interface HolidayTable {
  country: string;
  first: number;
  last: number;
  /** Per year, its holidays in date order: [YYYY-MM-DD, name]. */
  years: Record<string, [string, string][]>;
}

const DEFAULT_DIR = new URL('./holidays/', import.meta.url);

/** The table of `country` (two capitals) in `dir`, or undefined when none was built there. */
export function readHolidayTable(country: string, dir: URL = DEFAULT_DIR): HolidayTable | undefined {
  if (!/^[A-Z]{2}$/.test(country)) return undefined;
  const file = new URL(`${country}.json`, dir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as HolidayTable;
}

/** What date-holidays says of `country` for each year from `first` to `last`: public and bank holidays. */
export function buildHolidayTable(
  HolidaysClass: typeof Holidays,
  country: string,
  first: number,
  last: number,
): HolidayTable {
  const holidays = new HolidaysClass(country, { types: ['public', 'bank'] });
  const years: HolidayTable['years'] = {};
  for (let year = first; year <= last; year++) years[year] = holidaysOfYear(holidays, year);
  return { country, first, last, years };
}

/** A year's public and bank holidays as the calendar keeps them (of two on one date, the later one's name). */
export function holidaysOfYear(holidays: Holidays, year: number): [string, string][] {
  const byDate = new Map<string, string>();
  for (const h of holidays.getHolidays(year)) {
    const date = h.date.slice(0, 10);
    if (h.type === 'public' || h.type === 'bank') byDate.set(date, h.name);
  }
  return [...byDate];
}

/** Writes every table of TABLE_COUNTRIES for TABLE_YEARS into `dir` (the build's step). */
export function writeHolidayTables(HolidaysClass: typeof Holidays, dir: URL): void {
  mkdirSync(dir, { recursive: true });
  for (const country of TABLE_COUNTRIES) {
    const table = buildHolidayTable(HolidaysClass, country, TABLE_YEARS.first, TABLE_YEARS.last);
    writeFileSync(new URL(`${country}.json`, dir), JSON.stringify(table) + '\n');
  }
}
