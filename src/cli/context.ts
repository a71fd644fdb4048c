// What every command needs, built lazily from the global options: the configuration (loaded
// once) and the logger. Commands call `context(cmd)`; nothing is loaded for --help or --version.
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config/index.js';
import { createLogger, type Logger } from '../log/index.js';

export interface GlobalOptions {
  config?: string;
}

export interface CliContext {
  config: Readonly<Config>;
  logger: Logger;
}

export function context(command: Command): CliContext {
  const options = command.optsWithGlobals<GlobalOptions & { json?: boolean }>();
  const config = loadConfig(options.config === undefined ? {} : { file: options.config });
  const format = config.log.format === 'auto' ? undefined : config.log.format;
  // Logs go to stdout (journald), except when the command prints JSON there for a script.
  const stream = options.json ? process.stderr : process.stdout;
  const logger = createLogger({ level: config.log.level, stream, ...(format ? { format } : {}) });
  return { config, logger };
}
