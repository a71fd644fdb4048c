// winston logging: JSON lines on stdout (journald keeps them as they are), a readable console
// format when stdout is a terminal, a child logger per job run with `job` and `runId`, and
// secrets redacted in every line (./redact.ts).
import winston from 'winston';
import { redactText, redactValue } from './redact.js';

export type Logger = winston.Logger;
export type LogFormat = 'json' | 'pretty';
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: pretty on a TTY, json otherwise. */
  format?: LogFormat;
  /** Where lines go; default stdout. Tests pass a stream to read what was logged. */
  stream?: NodeJS.WritableStream;
}

const redaction = winston.format((info) => {
  const { level, message, ...rest } = info;
  const clean = redactValue(rest) as Record<string, unknown>;
  for (const key of Object.keys(rest)) delete (info as Record<string, unknown>)[key];
  Object.assign(info, clean, {
    level,
    message: typeof message === 'string' ? redactText(message) : redactValue(message),
  });
  return info;
});

export function createLogger(options: LoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stdout;
  const format = options.format ?? ((stream as { isTTY?: boolean }).isTTY ? 'pretty' : 'json');
  const shape =
    format === 'json'
      ? winston.format.combine(winston.format.timestamp(), winston.format.json())
      : winston.format.combine(
          winston.format.timestamp({ format: 'HH:mm:ss' }),
          winston.format.colorize(),
          winston.format.printf(({ timestamp, level, message, job, runId: _runId, ...rest }) => {
            const extra = Object.keys(rest).length ? ' ' + JSON.stringify(rest) : '';
            const where = typeof job === 'string' ? ` [${job}]` : '';
            return `${String(timestamp)} ${level}${where} ${String(message)}${extra}`;
          }),
        );
  return skipDisabledLevels(
    winston.createLogger({
      level: options.level ?? 'info',
      format: winston.format.combine(winston.format.errors({ stack: false }), redaction(), shape),
      transports: [new winston.transports.Stream({ stream })],
    }),
  );
}

/**
 * winston runs a line through every format (redaction, timestamp, JSON) before its transport
 * drops it for its level, so a service logging at `warn` paid for each `info` line anyway: the
 * level is asked first. Child loggers (runLogger) inherit the methods, and the level is read at
 * each call, so changing it later still works.
 */
function skipDisabledLevels(logger: Logger): Logger {
  for (const level of ['info', 'http', 'verbose', 'debug', 'silly'] as const) {
    const log = logger[level];
    logger[level] = function (this: Logger, ...args: unknown[]) {
      return this.isLevelEnabled(level) ? (log as (...a: unknown[]) => Logger).apply(this, args) : this;
    } as winston.LeveledLogMethod;
  }
  return logger;
}

/** A logger that drops everything; for library use and quiet tests. */
export function silentLogger(): Logger {
  return winston.createLogger({ silent: true, transports: [new winston.transports.Console({ silent: true })] });
}

/** The child logger of one job run. */
export function runLogger(parent: Logger, job: string, runId: string): Logger {
  return parent.child({ job, runId });
}
