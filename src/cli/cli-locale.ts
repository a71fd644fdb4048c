// The language of the CLI's human output, in a module of its own: `settle validate` uses it and
// must not load the logger, the database or anything else a command that reads a file does not need
// (test/cli/startup.test.ts).
import type { Config } from '../config/index.js';
import { FALLBACK_LOCALE } from '../i18n/fallback-locale.js';
import type { Locale } from '../i18n/index.js';

/**
 * The language of a command's human output about a company: the company's `locale`, else the
 * top-level `locale`, else English (docs/i18n.md). JSON output and error codes never change.
 */
export function cliLocale(config: Pick<Config, 'companies' | 'locale'>, company: string | undefined): Locale {
  return config.companies.find((c) => c.id === company)?.locale ?? config.locale ?? FALLBACK_LOCALE;
}

/**
 * Who reads a refusal of this command: the company's language by the rule above (the one company
 * `--company` names, else the configuration's only one), English for `--json` (scripts read it).
 */
export function refusalReaderOf(
  config: Pick<Config, 'companies' | 'locale'>,
  options: { company?: string | string[] | undefined; json?: boolean | undefined },
): Locale {
  if (options.json === true) return FALLBACK_LOCALE;
  const named = Array.isArray(options.company) ? options.company : options.company ? [options.company] : [];
  const company = named.length === 1 ? named[0] : config.companies.length === 1 ? config.companies[0]!.id : undefined;
  return cliLocale(config, company);
}
