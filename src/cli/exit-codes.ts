// The exit codes each command can return, shown at the end of its --help. One table, so the
// README, docs/errors.md and every --help say the same; test/cli/command-list.test.ts holds each
// command module to it (a code a module sets must be listed for its commands).
import type { Command } from 'commander';
import type { ExitCode } from '../domain/errors.js';

const MEANING: Record<ExitCode, string> = {
  0: 'done',
  1: 'needs a person: invalid input, a reconciliation finding, or something held for a decision',
  2: 'usage or configuration error',
  3: 'runtime failure (a bank, file system or database that failed, or stayed locked by another settle process; a bug)',
  4: 'already running: the work asked for is claimed by another settle process; nothing was done',
};

/** Every command that reads the database may also meet another process's claim (4) or lock (3). */
const EVERY_CODE: readonly ExitCode[] = [0, 1, 2, 3, 4];

/** Commands that never touch the database, by their path under `settle`. */
const WITHOUT_DATABASE: Readonly<Record<string, readonly ExitCode[]>> = {
  demo: [0, 1, 2, 3],
  validate: [0, 1, 2, 3],
  'config check': [0, 2, 3],
  'config show': [0, 2, 3],
  'sftp fingerprint': [0, 2, 3],
  sandbox: [0, 2, 3],
  serve: [0, 2, 3],
  reload: [0, 2, 3],
  'console hash-password': [0, 2, 3],
};

export function exitCodesOf(path: string): readonly ExitCode[] {
  return WITHOUT_DATABASE[path] ?? EVERY_CODE;
}

export function exitCodesHelp(path: string): string {
  const lines = exitCodesOf(path).map((code) => `  ${code}  ${MEANING[code]}`);
  return `\nExit codes:\n${lines.join('\n')}`;
}

/** Adds the exit codes to the help of a command and of each command under it. */
export function documentExitCodes(command: Command, parents: readonly string[] = []): void {
  const path = [...parents, command.name()];
  if (command.commands.length === 0) command.addHelpText('after', exitCodesHelp(path.join(' ')));
  for (const sub of command.commands) documentExitCodes(sub, path);
}
