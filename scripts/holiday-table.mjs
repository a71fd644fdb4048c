// Build step (`npm run build`, `prepare`): writes each table country's holidays into
// dist/src/domain/holidays/, so the installed CLI reads them as data instead of loading
// date-holidays (src/domain/holiday-table.ts). Runs after tsc, on its output.
import { createRequire } from 'node:module';

const { writeHolidayTables } = await import('../dist/src/domain/holiday-table.js');
const Holidays = createRequire(import.meta.url)('date-holidays');
writeHolidayTables(Holidays, new URL('../dist/src/domain/holidays/', import.meta.url));
