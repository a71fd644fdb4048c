// Runs the program and turns every failure into one sentence on stderr with a stable code and
// the documented exit code (docs/errors.md): 1 needs a person, 2 usage or configuration, 3 runtime, 4 already running.
import { CommanderError, type Command } from 'commander';
import { ExitCode, isSettleError, type SettleError } from '../domain/errors.js';
import { redactText } from '../log/redact.js';
import { describeDatabaseError } from '../store/busy.js';
import { refusalLocale } from './refusal-reader.js';

export async function runCli(program: Command, argv: string[]): Promise<void> {
  quietUsageErrors(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.exitCode = await reportError(error);
  }
}

/** Every command throws its usage errors to reportError instead of printing and exiting itself. */
function quietUsageErrors(command: Command): void {
  command.exitOverride();
  command.configureOutput({ outputError: () => undefined });
  for (const sub of command.commands) quietUsageErrors(sub);
}

export async function reportError(thrown: unknown): Promise<number> {
  const error = describeDatabaseError(thrown);
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok; // --help, --version
    process.stderr.write(`settle: ERR_USAGE: ${error.message.replace(/^error: /, '')} (see --help)\n`);
    return ExitCode.usage;
  }
  if (isSettleError(error)) {
    process.stderr.write(`settle: ${error.code}: ${redactText(await refusalIn(error))}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`settle: ERR_INTERNAL: ${redactText(message)}\n`);
  return ExitCode.runtime;
}

/**
 * The refusal in its reader's language (refusalLocale: the company's, English for --json); the
 * catalogue is loaded only for another language than English, whose readers read the message.
 */
async function refusalIn(error: SettleError): Promise<string> {
  const locale = refusalLocale();
  if (locale === 'en') return error.message;
  const { refusalText } = await import('../i18n/refusal.js');
  return refusalText(locale, error);
}
