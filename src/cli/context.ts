// What every command needs, built lazily from the global options: the configuration (loaded
// once) and the logger. Commands call `context(cmd)`; nothing is loaded for --help or --version.
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config/index.js';
import { SettleError } from '../domain/errors.js';
import { createLogger, type Logger } from '../log/index.js';
import { refusalReaderOf } from './cli-locale.js';
import { noteRefusalReader } from './refusal-reader.js';
export { cliLocale } from './cli-locale.js';

export interface GlobalOptions {
  config?: string;
}

export interface CliContext {
  config: Readonly<Config>;
  logger: Logger;
}

export function context(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions & { json?: boolean; company?: string | string[] }>();
  const config = loadConfig(options.config === undefined ? {} : { file: options.config });
  noteRefusalReader(refusalReaderOf(config, options));
  const format = config.log.format === 'auto' ? undefined : config.log.format;
  // Logs go to stdout (journald), except when the command prints JSON there for a script.
  const stream = options.json ? process.stderr : process.stdout;
  const logger = createLogger({ level: config.log.level, stream, ...(format ? { format } : {}) });
  return { config, logger };
}

/** The companies `--company` names (all of them when it is absent); an unknown id is a usage error. */
export function selectCompanies<T extends { id: string }>(
  all: readonly T[],
  wanted: string[] | undefined,
): readonly T[] {
  if (!wanted) return all;
  const unknown = wanted.filter((id) => !all.some((c) => c.id === id));
  if (unknown.length)
    throw new SettleError('ERR_COMPANY_UNKNOWN', `no company with id ${unknown.join(', ')} in the configuration`, {
      values: { ids: unknown.join(', ') },
    });
  return all.filter((c) => wanted.includes(c.id));
}

/** The company's time zone, else the configuration's. */
export function timeZoneOf(config: Pick<Config, 'companies' | 'timeZone'>, company: string): string {
  return config.companies.find((c) => c.id === company)?.timeZone ?? config.timeZone;
}
