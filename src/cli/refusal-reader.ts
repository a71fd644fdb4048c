// The language a refused command speaks in (docs/errors.md), noted once the configuration is
// loaded (context.ts) and read when the refusal is printed (run.ts). A module of its own with no
// catalogue in it: `settle --version` and `--help` load no sentences (test/cli/startup.test.ts).
import type { Locale } from '../i18n/locales.js';

let reader: Locale = 'en';

export function noteRefusalReader(locale: Locale): void {
  reader = locale;
}

/** The language a refusal of this command is written in; English before the configuration is read. */
export const refusalLocale = (): Locale => reader;
