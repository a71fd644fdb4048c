// `settle config check|show`: an operator's way to see what settle will run with.
import { Command } from 'commander';
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
    .description('print the effective configuration as JSON, secrets masked')
    .action((_opts, cmd: Command) => {
      const { config } = context(cmd);
      process.stdout.write(JSON.stringify(redactValue(JSON.parse(JSON.stringify(config))), null, 2) + '\n');
    });
  return command;
}
