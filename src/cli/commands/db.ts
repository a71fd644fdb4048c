// `settle db migrate`: brings the database schema up to this version (forward only).
import { Command } from 'commander';
import { openConfiguredDatabase } from '../../main/database.js';
import { context } from '../context.js';

export function dbCommand(): Command {
  const command = new Command('db').description('database maintenance');
  command
    .command('migrate')
    .description('apply the schema migrations this version of settle knows (forward only)')
    .action(async (_opts, cmd: Command) => {
      const { config, logger } = context(cmd);
      const db = await openConfiguredDatabase(config, logger);
      try {
        const result = await db.migrate();
        const what = result.applied.length ? `applied ${result.applied.join(', ')}` : 'already up to date';
        process.stdout.write(
          `database ${db.description}: ${what} (${result.alreadyApplied.length + result.applied.length} migrations in all)\n`,
        );
      } finally {
        await db.close();
      }
    });
  return command;
}
