// `settle audit list|verify`: the audit trail of every manual decision (who, what, why, when,
// from where), and a check that nobody edited it: each entry is chained to the one before it
// by hash, so `verify` names the first entry that was changed, removed or slipped in.
import { Command } from 'commander';
import { SettleError } from '../../domain/errors.js';
import { createApp } from '../../main/app.js';
import { context } from '../context.js';

export function auditCommand(): Command {
  const command = new Command('audit').description('the audit trail of decisions people took in settle');
  command
    .command('list')
    .description('entries oldest first')
    .option('--subject <type:id>', 'only decisions about one subject, e.g. bulk:ID or finding:COMPANY/F-…')
    .option('--json', 'print JSON')
    .action(async (options: { subject?: string; json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const [type, ...rest] = options.subject?.split(':') ?? [];
        // Refusals counted in minutes that are over become entries first, so they are listed and verified.
        await app.store.auditRefusals.flush();
        const entries = await app.store.audit.list(
          type && rest.length > 0 ? { subject: { type, id: rest.join(':') } } : {},
        );
        // The JSON keeps the fields scripts read; a reason's recorded text is for people's pages.
        if (options.json)
          return void process.stdout.write(
            JSON.stringify(
              entries.map(({ said: _said, ...entry }) => entry),
              null,
              2,
            ) + '\n',
          );
        if (entries.length === 0) return void process.stdout.write('no decisions recorded\n');
        for (const a of entries)
          process.stdout.write(
            `${a.seq}  ${a.at.toISOString()}  ${a.actor} (${a.origin})  ${a.action}  ${a.subject.type}:${a.subject.id}` +
              `${a.reason ? `\n    why: ${a.reason}` : ''}\n`,
          );
      } finally {
        await app.close();
      }
    });
  command
    .command('verify')
    .description('check the hash chain; exit 1 and name the first broken entry if history was edited')
    .option(
      '--head <hash>',
      'a head hash kept elsewhere (an earlier verify, the log\'s "audit head" lines): also check it is still in the trail, so deleted newest entries are found',
    )
    .action(async (options: { head?: string }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        await app.store.auditRefusals.flush();
        const check = await app.store.audit.verify();
        if (!check.ok)
          throw new SettleError(
            'ERR_AUDIT_CHAIN_BROKEN',
            `the audit trail does not hold after ${check.entries} good entries: ${check.problem}; restore the database from a backup and compare`,
            { details: { brokenAt: check.brokenAt } },
          );
        if (options.head !== undefined && !(await app.store.audit.holdsHead(options.head)))
          throw new SettleError(
            'ERR_AUDIT_CHAIN_BROKEN',
            `the head ${options.head} kept elsewhere is not in the audit trail (${check.entries} entries, head ${check.headHash}): the newest entries up to it were deleted, or the hash is mistyped; restore the database from a backup and compare`,
          );
        process.stdout.write(
          `audit trail intact: ${check.entries} entries; head hash ${check.headHash} (keep it elsewhere to detect removal of the latest entries)\n`,
        );
      } finally {
        await app.close();
      }
    });
  return command;
}
