// `settle config check|show`: an operator's way to see what settle will run with.
import { Command } from 'commander';
import { DURATION_KEYS, formatDuration } from '../../config/index.js';
import { redactValue } from '../../log/index.js';
import { context } from '../context.js';

export function configCommand(): Command {
  const command = new Command('config').description('check or show the effective configuration');
  command
    .command('check')
    .description('load and validate the configuration; exit 2 with every problem listed if it is invalid')
    .action((_opts, cmd: Command) => {
      const { config } = context(cmd);
      const source = config.source.file ?? 'embedded defaults';
      const overrides = config.source.envOverrides.length
        ? `; environment overrides: ${config.source.envOverrides.join(', ')}`
        : '';
      process.stdout.write(`configuration OK (${source}${overrides}); ${config.companies.length} company(ies)\n`);
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
