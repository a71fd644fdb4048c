// `settle config check|show`: an operator's way to see what settle will run with.
import { Command } from 'commander';
import { companyBanks, DURATION_KEYS, formatDuration } from '../../config/index.js';
import { ExitCode, isSettleError } from '../../domain/errors.js';
import { redactValue } from '../../log/index.js';
import { context, type CliContext } from '../context.js';

export function configCommand(): Command {
  const command = new Command('config').description('check or show the effective configuration');
  command
    .command('check')
    .description(
      'load and validate the configuration; exit 2 with every problem listed if it is invalid; with --online also reach the folders, the database and the bank (exit 3 when one of them is wrong)',
    )
    .option('--online', 'also check the folders (local and SFTP), the database and the bank')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { online?: boolean; json?: boolean }, cmd: Command) => {
      const loaded = loadForCheck(cmd, opts.json === true);
      if (!loaded) return;
      const { config, logger } = loaded;
      const source = config.source.file ?? 'embedded defaults';
      const checks = opts.online ? await (await import('../../main/online-check.js')).checkOnline(config, logger) : [];
      const problems = checks.filter((c) => !c.ok);
      // Offline nothing can say whether the bank knows a bankId: say so rather than imply it.
      const unchecked = opts.online ? [] : config.companies.flatMap((c) => companyBanks(c).map((b) => b.bankId));
      if (problems.length > 0) process.exitCode = ExitCode.runtime;
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify(
            {
              valid: true,
              source,
              envOverrides: config.source.envOverrides,
              companies: config.companies.length,
              problems: [],
              online: opts.online ? { ok: problems.length === 0, checks } : null,
              uncheckedBankIds: [...new Set(unchecked)],
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      const overrides = config.source.envOverrides.length
        ? `; environment overrides: ${config.source.envOverrides.join(', ')}`
        : '';
      process.stdout.write(`configuration OK (${source}${overrides}); ${config.companies.length} company(ies)\n`);
      if (unchecked.length)
        process.stdout.write(
          `bankIds not checked against the bank (${[...new Set(unchecked)].join(', ')}): run \`settle config check --online\`\n`,
        );
      for (const c of checks) process.stdout.write(`${c.ok ? '✓' : '✗'} ${c.area}: ${c.subject}: ${c.message}\n`);
      if (opts.online)
        process.stdout.write(
          problems.length ? `${problems.length} problem(s) found online\n` : 'folders, database and bank OK\n',
        );
    });
  command
    .command('show')
    .description('print the effective configuration as JSON, secrets masked, durations as written (3d, 30s)')
    .action((_opts, cmd: Command) => {
      const { config } = context(cmd);
      const asWritten = (key: string, value: unknown): unknown =>
        DURATION_KEYS.has(key) && typeof value === 'number' ? formatDuration(value) : value;
      process.stdout.write(JSON.stringify(redactValue(JSON.parse(JSON.stringify(config))), asWritten, 2) + '\n');
    });
  return command;
}

/**
 * The configuration, or (with --json) undefined after printing why it is invalid: a script reads
 * the problems from stdout instead of parsing the error sentence. Exit 2 either way.
 */
function loadForCheck(cmd: Command, json: boolean): CliContext | undefined {
  try {
    return context(cmd);
  } catch (error) {
    if (!json || !isSettleError(error) || error.code !== 'ERR_CONFIG_INVALID') throw error;
    const problems = (error.details?.problems ?? []) as { path: string; message: string }[];
    process.stdout.write(
      `${JSON.stringify({ valid: false, problems: problems.map((p) => ({ path: p.path, message: p.message })), online: null }, null, 2)}\n`,
    );
    process.exitCode = ExitCode.usage;
    return undefined;
  }
}
