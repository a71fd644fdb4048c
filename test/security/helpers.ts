// Shared by the security suites: every file under a folder (to scan what settle wrote) and the
// intake validation settings of the other intake tests (Monday 2026-01-05, Norwegian calendar).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { charsetRule } from '../../src/domain/validation/charset.js';
import type { ValidationOptions } from '../../src/domain/validation/payment-validator.js';

/** Absolute paths of every regular file below `dir`, depth first. */
export async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

export function validationOptions(): ValidationOptions {
  return {
    asOf: '2026-01-05' as LocalDate,
    calendar: businessCalendar('NO'),
    nonBusinessDayPolicy: 'flag',
    charset: charsetRule(),
  };
}
