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
  const options = command.optsWithGlobals<GlobalOptions>();
  const config = loadConfig(options.config === undefined ? {} : { file: options.config });
  const format = config.log.format === 'auto' ? undefined : config.log.format;
  const logger = createLogger({ level: config.log.level, ...(format ? { format } : {}) });
  return { config, logger };
}
