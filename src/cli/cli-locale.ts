// The language of the CLI's human output, in a module of its own: `settle validate` uses it and
// must not load the logger, the database or anything else a command that reads a file does not need
// (test/cli/startup.test.ts).
import type { Config } from '../config/index.js';
import { FALLBACK_LOCALE, type Locale } from '../i18n/index.js';

/**
 * The language of a command's human output about a company: the company's `locale`, else the
 * top-level `locale`, else English (docs/i18n.md). JSON output and error codes never change.
 */
export function cliLocale(config: Pick<Config, 'companies' | 'locale'>, company: string | undefined): Locale {
  return config.companies.find((c) => c.id === company)?.locale ?? config.locale ?? FALLBACK_LOCALE;
}
