// `settle db migrate`: brings the database schema up to this version (forward only).
// `settle db compact`: rebuilds a SQLite file (src/store/compact.ts), with every other settle stopped.
import { Command } from 'commander';
import { openConfiguredDatabase } from '../../main/database.js';
import { compactSqlite } from '../../store/index.js';
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
  command
    .command('compact')
    .description(
      'rebuild the SQLite file: give back the pages purges freed, take the page size of a new file (stop every other settle first)',
    )
    .action(async (_opts, cmd: Command) => {
      const { config, logger } = context(cmd);
      const db = await openConfiguredDatabase(config, logger);
      try {
        const done = await compactSqlite(db);
        const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
        process.stdout.write(
          `database ${db.description}: ${mib(done.bytesBefore)} → ${mib(done.bytesAfter)}, ` +
            `pages of ${done.pageSizeBefore / 1024} KiB → ${done.pageSizeAfter / 1024} KiB` +
            ` (${done.freePagesBefore} free pages given back)\n`,
        );
      } finally {
        await db.close();
      }
    });
  return command;
}
