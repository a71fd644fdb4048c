// `settle controls test FILE [--company ID] [--json]`: which lines of a payment file the payment
// controls would hold and why (docs/controls.md), without sending, storing or auditing anything.
// Exit 0 when nothing would be held, 1 when some line would be.
import { Command } from 'commander';
import { controlsTestText, testControls } from '../../../jobs/controls/index.js';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { createApp } from '../../main/app.js';
import { profileLoader } from '../../main/profiles.js';
import { context } from '../context.js';

export function controlsCommand(): Command {
  const command = new Command('controls').description('the payment controls that hold lines for a person at pickup');
  command
    .command('test')
    .description('show which lines of FILE each control would hold and why; nothing is sent or stored')
    .argument('<file>', 'a payment file as the ERP drops it in the inbox')
    .option('--company <id>', 'the company whose controls and history apply (default: the first)')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { company?: string; json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const company =
        options.company === undefined ? config.companies[0] : config.companies.find((c) => c.id === options.company);
      if (!company)
        throw new SettleError(
          'ERR_USAGE',
          options.company === undefined ? 'no company is configured' : `no company "${options.company}" is configured`,
        );
      const app = await createApp(config, logger);
      try {
        const result = await testControls(
          {
            db: app.db,
            clock: app.clock,
            timeZone: config.timeZone,
            profile: await profileLoader()(company.intake.profile),
          },
          company,
          file,
        );
        process.stdout.write(options.json ? JSON.stringify(result, null, 2) + '\n' : controlsTestText(result));
        if (result.held.length > 0) process.exitCode = ExitCode.needsPerson;
      } finally {
        await app.close();
      }
    });
  return command;
}
