// The field types the configuration's sections share (durations, sizes, amounts, names, zones,
// languages), so a key means the same and says the same when it is wrong wherever it stands.
import { z } from 'zod';
import { parseByteSize } from './byte-size.js';
import { PERSON_ID } from '../domain/person.js';
import { LOCALES, type Locale } from '../i18n/locales.js';
import { parseDuration } from './duration.js';

export const duration = (fallback: string) =>
  z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a duration (e.g. 30s, 5m, 24h, 7d)` });
        return z.NEVER;
      }
      return ms;
    });

export const byteSize = (fallback: string | number) =>
  z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const bytes = parseByteSize(value);
      if (bytes === undefined) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a size (e.g. 512MB, 1GiB)` });
        return z.NEVER;
      }
      return bytes;
    });

export const decimal = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal amount such as "250000.00"');
export const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'lower-case letters, digits, - and _ (at most 32)');
/** An explicit person id (companies[].people[].person, console.localUsers[].person). */
export const personId = z
  .string()
  .regex(PERSON_ID, 'lower-case letters, digits, . _ - (at most 64), not an e-mail address');

/** A language settle has a catalogue for (docs/i18n.md): en, nb, or en-XA to check a translation. */
export const locale = z.enum(LOCALES as [Locale, ...Locale[]]);

export const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'not an IANA time zone such as Europe/Oslo');

export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM, e.g. "06:00"');
