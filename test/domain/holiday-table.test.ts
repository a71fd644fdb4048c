// The holiday table the build writes (scripts/holiday-table.mjs → src/domain/holiday-table.ts)
// must say what date-holidays says, and a calendar read from it must answer as the library's
// does, inside the years it covers and past them.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Holidays from 'date-holidays';
import { afterAll, describe, expect, it } from 'vitest';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import {
  holidaysOfYear,
  readHolidayTable,
  TABLE_COUNTRIES,
  TABLE_YEARS,
  writeHolidayTables,
} from '../../src/domain/holiday-table.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';

const HolidaysClass = createRequire(import.meta.url)('date-holidays') as typeof Holidays;
const dir = mkdtempSync(join(tmpdir(), 'settle-holidays-'));
const tables = pathToFileURL(dir + '/');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every day of `year`, as a calendar answers it: holiday name or a business day. */
function answers(calendar: ReturnType<typeof businessCalendar>, year: number): string[] {
  const out: string[] = [];
  for (let d = `${year}-01-01` as LocalDate; d.startsWith(String(year)); d = addDays(d, 1))
    out.push(`${d} ${calendar.holidayName(d) ?? ''} ${calendar.isBusinessDay(d)}`);
  return out;
}

describe('the holiday table', () => {
  writeHolidayTables(HolidaysClass, tables);

  it('holds what date-holidays says for every table country and year', () => {
    for (const country of TABLE_COUNTRIES) {
      const table = readHolidayTable(country, tables)!;
      expect(table, country).toBeDefined();
      expect([table.first, table.last]).toEqual([TABLE_YEARS.first, TABLE_YEARS.last]);
      const library = new HolidaysClass(country, { types: ['public', 'bank'] });
      for (let year = table.first; year <= table.last; year++)
        expect(table.years[year], `${country} ${year}`).toEqual(holidaysOfYear(library, year));
    }
    // Norway's 17 May and Easter Monday 2026 are there, so the comparison is of something.
    expect(readHolidayTable('NO', tables)!.years[2026]).toEqual(
      expect.arrayContaining([
        ['2026-05-17', 'Grunnlovsdagen'],
        ['2026-04-06', 'Andre påskedag'],
      ]),
    );
  }, 120_000);

  it('a calendar read from it answers as the library does, inside the years covered and past them', () => {
    const library = businessCalendar('NO', pathToFileURL(join(dir, 'none') + '/'));
    const fromTable = businessCalendar('NO', tables);
    for (const year of [TABLE_YEARS.first, 2026, TABLE_YEARS.last, TABLE_YEARS.first - 1, TABLE_YEARS.last + 1])
      expect(answers(fromTable, year), String(year)).toEqual(answers(library, year));
    expect(fromTable.addBusinessDays('2026-05-15' as LocalDate, 1)).toBe('2026-05-18');
  });

  it('a country without a table is asked of the library, and an unknown one is refused as before', () => {
    expect(readHolidayTable('CH', tables)).toBeUndefined();
    expect(businessCalendar('CH', tables).holidayName('2026-08-01' as LocalDate)).toBeDefined();
    expect(() => businessCalendar('XX', tables)).toThrow(/no holiday calendar for country "XX"/);
    expect(readHolidayTable('..', tables)).toBeUndefined();
  });
});
