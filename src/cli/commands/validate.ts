// `settle validate FILE [--profile P] [--company ID] [--as-of YYYY-MM-DD] [--json]`: reads a
// payment file the way the pickup job will — the same validation (intake-settings.ts), with the
// company's intake settings when a configuration file is there — and reports every issue (past
// the 1,000 a result keeps, from a work file: validate-output.ts). A
// receivables profile reads a file of open receivables instead (validate-receivables.ts). The
// human output speaks the company's language (validate-human.ts); --json never changes. Exit 0
// valid, 1 invalid, 2 usage or configuration error (unknown profile, bad option).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { createProgress } from '../progress.js';
import { parseByteSize } from '../../config/byte-size.js';
import { businessCalendar } from '../../domain/business-calendar.js';
import { systemClock, type Clock } from '../../domain/clock.js';
import { ExitCode, isSettleError, SettleError } from '../../domain/errors.js';
import type { Issue } from '../../domain/issue.js';
import { isLocalDate, today, type LocalDate } from '../../domain/local-date.js';
import { DEFAULT_MAX_FILE_BYTES, formatBytes } from '../../domain/validation/file-size.js';
import { loadProfile } from '../../formats/csv-profile/load-profile.js';
import type { CsvProfile } from '../../formats/csv-profile/profile.js';
import { profileKindOf, type ProfileKind } from '../../formats/csv-profile/profile-kind.js';
import { readHead } from '../../formats/intake/byte-source.js';
import { detectFormat } from '../../formats/intake/detect-format.js';
import { DEFAULT_INTAKE, intakeValidation, type IntakeSettings } from '../../formats/intake/intake-settings.js';
import { validateFile, type IntakeResult } from '../../formats/intake/validate-file.js';
import { FALLBACK_LOCALE } from '../../i18n/fallback-locale.js';
import type { Locale } from '../../i18n/index.js';
import { cliLocale } from '../cli-locale.js';
import { wouldBe } from './validate-human.js';
import { issuesWorkFile, printValidation, streamOut, type Out } from './validate-output.js';

/** What validation runs with besides the command line; all have defaults. */
export interface ValidateSettings {
  /** Folders searched for <profile>.yaml, first match wins (default: ./config/profiles, then the package's). */
  profileDirs?: readonly string[];
  /**
   * The intake settings (calendar, holiday policy, character set, maximum amount). Default: the
   * configured company's `intake` when a configuration file is there (--config, or
   * config/settle.yaml in the working directory), else the defaults of a company that sets none.
   */
  intake?: Partial<IntakeSettings>;
  /** Time zone of "today" (default: the configuration's, else Europe/Oslo). */
  timeZone?: string;
  clock?: Clock;
  /** Normalised IBANs of onboarded accounts when known (the bank was reachable). */
  onboardedDebtorAccounts?: ReadonlySet<string>;
  /** Where config/settle.yaml is looked for (default: the working directory). */
  cwd?: string;
}

export interface ValidateIo {
  /** The report; a promise when the writer should wait before the next piece (a full pipe). */
  out: Out;
  err: (text: string) => void;
}

export interface ValidateArgs {
  profile?: string;
  asOf?: string;
  json?: boolean;
  /** Largest file read, in bytes (--max-file-size; default the company's intake.maxFileSize, 1 GiB). */
  maxFileSize?: number;
  /** The configured company whose intake settings and profile apply (default: the first). */
  company?: string;
  /** The configuration file (the global --config; default: config/settle.yaml when present). */
  config?: string;
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
    const configured = await configuredIntake(args, settings.cwd ?? process.cwd());
    const intake: IntakeSettings = { ...DEFAULT_INTAKE, ...configured?.intake, ...settings.intake };
    try {
      businessCalendar(intake.calendar);
    } catch (error) {
      throw new SettleError('ERR_VALIDATE_USAGE', `no holiday calendar for country "${intake.calendar}"`, {
        cause: error,
      });
    }
    const dirs = settings.profileDirs ?? defaultProfileDirs();
    const named = args.profile ?? configured?.profile;
    if (named !== undefined && (await profileKind(named, dirs)) === 'receivables') {
      const { validateReceivables } = await import('./validate-receivables.js');
      const locale = configured?.locale ?? FALLBACK_LOCALE;
      return await validateReceivables(file, named, dirs, { json: args.json === true, io, locale });
    }
    const profile = await profileFor(file, named, dirs);
    const validation = intakeValidation(
      intake,
      asOf,
      settings.onboardedDebtorAccounts ? { onboardedDebtorAccounts: settings.onboardedDebtorAccounts } : {},
    );
    // On a terminal, a live count for big files; nothing otherwise (no noise in pipes and logs).
    const progress = createProgress(`validating ${file}: valid payments`);
    let valid = 0;
    const onPayment = () => {
      valid++;
      progress.tick();
    };
    const maxFileBytes = args.maxFileSize ?? configured?.maxFileSize;
    const limit = maxFileBytes === undefined ? {} : { maxFileBytes };
    const json = args.json === true;
    const spilled = issuesWorkFile(json);
    try {
      const moreIssues = (issue: Issue) => spilled.add(issue);
      const result = await validateFile(
        file,
        profile
          ? { profile, validation, onPayment, moreIssues, ...limit }
          : { validation, onPayment, moreIssues, ...limit },
      ).finally(() => progress.done());
      const locale = configured?.locale ?? FALLBACK_LOCALE;
      const outcome = wouldBe(result, valid, configured?.acceptValidLines ?? false);
      await printValidation(io.out, { json, result, spilled, outcome, profile, locale });
      return { exitCode: result.valid ? ExitCode.ok : ExitCode.needsPerson, result };
    } finally {
      spilled.remove();
    }
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

/** The configured company's intake settings and profile, when a configuration file is there. */
async function configuredIntake(
  args: ValidateArgs,
  cwd: string,
): Promise<
  | { intake: IntakeSettings; profile: string; maxFileSize: number; acceptValidLines: boolean; locale: Locale }
  | undefined
> {
  if (args.config === undefined && !existsSync(join(cwd, 'config', 'settle.yaml'))) {
    if (args.company !== undefined)
      throw new SettleError('ERR_COMPANY_UNKNOWN', `no configuration file names company "${args.company}"`, {
        values: { ids: args.company },
      });
    return undefined;
  }
  const { loadConfig } = await import('../../config/index.js');
  const config = loadConfig({ cwd, ...(args.config === undefined ? {} : { file: args.config }) });
  const company =
    args.company === undefined ? config.companies[0] : config.companies.find((c) => c.id === args.company);
  if (company === undefined && args.company !== undefined)
    throw new SettleError('ERR_COMPANY_UNKNOWN', `no company with id ${args.company} in the configuration`, {
      values: { ids: args.company },
    });
  if (company === undefined) return undefined;
  return {
    intake: company.intake,
    profile: company.intake.profile,
    maxFileSize: company.intake.maxFileSize,
    acceptValidLines: company.intake.acceptValidLines,
    // The accountant's language: the company's, else the top-level one, else English.
    locale: cliLocale(config, company.id),
  };
}

/** The kind a profile file declares (`kind: receivables`), without reading it with a schema. */
async function profileKind(name: string, dirs: readonly string[]): Promise<ProfileKind> {
  const { loadProfileWith } = await import('../../formats/csv-profile/load-profile.js');
  return loadProfileWith(name, dirs, (text, file) => ({ name, kind: profileKindOf(text, file) })).then((p) => p.kind);
}

let stdout: Out | undefined;

const stdio: ValidateIo = {
  out: (text) => (stdout ??= streamOut(process.stdout))(text),
  err: (text) => void process.stderr.write(text),
};

export function validateCommand(settings: ValidateSettings = {}, io: ValidateIo = stdio): Command {
  return new Command('validate')
    .description(
      'check a payment file (CSV by profile, or pain.001) and list every issue; exit 0 valid, 1 invalid, 2 usage error',
    )
    .argument('<FILE>', 'the payment file')
    .option(
      '--profile <name>',
      "CSV profile from config/profiles/<name>.yaml (default: the company's intake.profile, else generic; ignored for pain.001); a receivables profile checks a file of open receivables",
    )
    .option('--company <id>', 'the configured company whose intake settings apply (default: the first)')

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
    .action(async (file: string, args: ValidateArgs, command: Command) => {
      // The configuration file is the program's global -c/--config.
      const config = command.optsWithGlobals<{ config?: string }>().config;
      const outcome = await runValidate(file, config === undefined ? args : { ...args, config }, settings, io);
      process.exitCode = outcome.exitCode;
    });
}
