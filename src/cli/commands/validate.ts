// `settle validate FILE [--profile P] [--as-of YYYY-MM-DD] [--json]`: reads a payment file the
// way the pickup job will, and reports every issue. Exit 0 valid, 1 invalid, 2 usage or
// configuration error (unknown profile, bad option). The lead registers it in program.ts.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { createProgress } from '../progress.js';
import { parseByteSize } from '../../config/byte-size.js';
import { businessCalendar, type BusinessCalendar } from '../../domain/business-calendar.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import { ExitCode, isSettleError, SettleError } from '../../domain/errors.js';
import { isLocalDate, today, type LocalDate } from '../../domain/local-date.js';
import { charsetRule } from '../../domain/validation/charset.js';
import type { NonBusinessDayPolicy } from '../../domain/validation/line-rules.js';
import { DEFAULT_MAX_FILE_BYTES, formatBytes } from '../../domain/validation/file-size.js';
import { loadProfile } from '../../formats/csv-profile/load-profile.js';
import type { CsvProfile } from '../../formats/csv-profile/profile.js';
import { readHead } from '../../formats/intake/byte-source.js';
import { detectFormat } from '../../formats/intake/detect-format.js';
import { toHuman, toJson } from '../../formats/intake/render-result.js';
import { validateFile, type IntakeResult } from '../../formats/intake/validate-file.js';

/** Settings that will come from the configuration file; all have defaults. */
export interface ValidateSettings {
  /** Folders searched for <profile>.yaml, first match wins (default: ./config/profiles, then the package's). */
  profileDirs?: readonly string[];
  /** Largest amount per currency ("*" = any currency); default none. */
  maxAmount?: Readonly<Record<string, string>>;
  /** Bank holiday calendar country (default NO). */
  calendarCountry?: string;
  /** Time zone of "today" (default Europe/Oslo). */
  timeZone?: string;
  nonBusinessDayPolicy?: NonBusinessDayPolicy;
  /** Extra characters allowed in pain.001 text fields beyond the EPC set (CSV profiles carry their own). */
  xmlCharsetExtra?: string;
  clock?: Clock;
  /** Normalised IBANs of onboarded accounts when known (the bank was reachable). */
  onboardedDebtorAccounts?: ReadonlySet<string>;
}

export interface ValidateIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface ValidateArgs {
  profile?: string;
  asOf?: string;
  json?: boolean;
  /** Largest file read, in bytes (--max-file-size; default intake.maxFileSize's default, 1 GiB). */
  maxFileSize?: number;
}

export interface ValidateOutcome {
  exitCode: ExitCode;
  result?: IntakeResult;
}

/** The package's own config/profiles, found by walking up from this file to package.json. */
export function packageProfilesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'config', 'profiles');
    dir = dirname(dir);
  }
  return resolve('config', 'profiles');
}

export function defaultProfileDirs(cwd = process.cwd()): string[] {
  return [...new Set([resolve(cwd, 'config', 'profiles'), packageProfilesDir()])];
}

/** Runs the validation and prints the report; returns the exit code (never exits the process). */
export async function runValidate(
  file: string,
  args: ValidateArgs,
  settings: ValidateSettings = {},
  io: ValidateIo = stdio,
): Promise<ValidateOutcome> {
  try {
    let asOf: LocalDate;
    if (args.asOf !== undefined) {
      if (!isLocalDate(args.asOf))
        throw new SettleError('ERR_VALIDATE_USAGE', `--as-of "${args.asOf}" is not a date (YYYY-MM-DD)`);
      asOf = args.asOf;
    } else {
      asOf = today(settings.clock ?? systemClock, settings.timeZone ?? 'Europe/Oslo');
    }
    let calendar: BusinessCalendar;
    try {
      calendar = businessCalendar(settings.calendarCountry ?? 'NO');
    } catch (error) {
      throw new SettleError('ERR_VALIDATE_USAGE', `no holiday calendar for country "${settings.calendarCountry}"`, {
        cause: error,
      });
    }
    const profile = await profileFor(file, args.profile, settings.profileDirs ?? defaultProfileDirs());
    const validation = {
      asOf,
      calendar,
      nonBusinessDayPolicy: settings.nonBusinessDayPolicy ?? 'flag',
      charset: charsetRule(settings.xmlCharsetExtra ?? ''),
      ...(settings.maxAmount ? { maxAmount: settings.maxAmount } : {}),
      ...(settings.onboardedDebtorAccounts ? { onboardedDebtorAccounts: settings.onboardedDebtorAccounts } : {}),
    };
    // On a terminal, a live count for big files; nothing otherwise (no noise in pipes and logs).
    const progress = createProgress(`validating ${file}: valid payments`);
    const onPayment = () => progress.tick();
    const limit = args.maxFileSize === undefined ? {} : { maxFileBytes: args.maxFileSize };
    const result = await validateFile(
      file,
      profile ? { profile, validation, onPayment, ...limit } : { validation, onPayment, ...limit },
    ).finally(() => progress.done());
    io.out(args.json ? JSON.stringify(toJson(result), null, 2) + '\n' : toHuman(result));
    return { exitCode: result.valid ? ExitCode.ok : ExitCode.findings, result };
  } catch (error) {
    if (isSettleError(error)) {
      io.err(`settle validate: ${error.code}: ${error.message}\n`);
      return { exitCode: error.exitCode };
    }
    throw error;
  }
}

/** The profile to use: the named one, or "generic" for a CSV file; none for XML. */
async function profileFor(
  file: string,
  name: string | undefined,
  dirs: readonly string[],
): Promise<CsvProfile | undefined> {
  if (name !== undefined) return loadProfile(name, dirs);
  let head: Buffer;
  try {
    head = await readHead(file);
  } catch {
    return undefined; // validateFile reports the unreadable file with its own code
  }
  return detectFormat(head).kind === 'csv' ? loadProfile('generic', dirs) : undefined;
}

const stdio: ValidateIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

export function validateCommand(settings: ValidateSettings = {}, io: ValidateIo = stdio): Command {
  return new Command('validate')
    .description(
      'check a payment file (CSV by profile, or pain.001) and list every issue; exit 0 valid, 1 invalid, 2 usage error',
    )
    .argument('<FILE>', 'the payment file')
    .option('--profile <name>', 'CSV profile from config/profiles/<name>.yaml (default: generic; ignored for pain.001)')
    .option(
      '--as-of <YYYY-MM-DD>',
      'evaluate date rules as on this day (default: today in the configured time zone)',
      (v) => {
        if (!isLocalDate(v)) throw new InvalidArgumentError('expected a date YYYY-MM-DD');
        return v;
      },
    )
    .option(
      '--max-file-size <size>',
      `largest file read, e.g. 512MB or 2GiB (default ${formatBytes(DEFAULT_MAX_FILE_BYTES)}, as intake.maxFileSize); a larger one is refused unread`,
      (v) => {
        const bytes = parseByteSize(v);
        if (bytes === undefined) throw new InvalidArgumentError('expected a size such as 512MB, 2GiB or 1000000');
        return bytes;
      },
    )
    .option('--json', 'print {file, format, sha256, payments, totals, issues} as JSON')
    .exitOverride((err) => {
      // Commander's own errors (unknown option, missing FILE) are usage errors: exit 2, not 1.
      process.exit(err.exitCode === 0 ? 0 : ExitCode.usage);
    })
    .action(async (file: string, args: ValidateArgs) => {
      const outcome = await runValidate(file, args, settings, io);
      process.exitCode = outcome.exitCode;
    });
}
