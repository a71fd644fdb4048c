// `settle payments list|resolve`: what an operator needs when a bulk's outcome is unknown
// (docs/runbook.md, "A payment is unknown"): see the bulks, and record what the bank confirmed —
// never by sending again, always with a reason that stays in the transition log.
import { Command, InvalidArgumentError } from 'commander';
import { BULK_STATES, type BulkState } from '../../domain/states.js';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { createApp } from '../../main/app.js';
import type { StoredBulk } from '../../store/index.js';
import { context } from '../context.js';
import { addHeldCommands } from './payments-held.js';

const state = (value: string): BulkState => {
  if (!(BULK_STATES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`one of ${BULK_STATES.join(', ')}`);
  return value as BulkState;
};

export function paymentsCommand(): Command {
  const command = new Command('payments').description(
    'inspect bulk credit transfers, resolve those whose outcome is unknown, release or drop held likely duplicates',
  );
  command
    .command('list')
    .description('bulks by state (default: the ones that need a person: unknown and attention)')
    .option('--state <state...>', `any of ${BULK_STATES.join(', ')}`, (v: string, all: BulkState[] = []) => [
      ...all,
      state(v),
    ])
    .option('--company <id>', 'only this company')
    .option('--json', 'print JSON')
    .action(async (options: { state?: BulkState[]; company?: string; json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const bulks: StoredBulk[] = [];
        for (const s of options.state ?? (['unknown', 'attention'] as const))
          bulks.push(...(await app.store.bulks.listByState(s)));
        const shown = bulks.filter((b) => !options.company || b.company === options.company);
        if (options.json) return void process.stdout.write(JSON.stringify(shown, null, 2) + '\n');
        if (shown.length === 0) return void process.stdout.write('no bulks in that state\n');
        for (const b of shown) {
          const totals = Object.entries(b.totals)
            .map(([c, m]) => `${m} ${c} (minor units)`)
            .join(', ');
          process.stdout.write(
            `${b.id}  ${b.company}  ${b.state}  ${b.debtorIban}  ${b.executionDate}  ${b.lineCount} line(s)  ${totals}  key ${b.idempotencyKey}${b.bankPaymentId ? `  bank ${b.bankPaymentId}` : ''}\n`,
          );
        }
      } finally {
        await app.close();
      }
    });
  command
    .command('resolve')
    .description('record what the bank confirmed about a bulk whose outcome is unknown; nothing is sent')
    .argument('<bulk>', 'the bulk id (settle payments list)')
    .requiredOption(
      '--as <outcome>',
      'at-bank (the bank has it; give --payment-id) or not-at-bank (the bank confirms it does not exist: the lines are reported as rejected and the ERP must produce new payments)',
    )
    .option('--payment-id <id>', "the bank's payment id, with --as at-bank")
    .requiredOption('--reason <text>', 'who confirmed what, and when; kept in the transition log')
    .action(async (bulkId: string, options: { as: string; paymentId?: string; reason: string }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const bulk = await app.store.bulks.get(bulkId);
        if (!bulk)
          throw new SettleError('ERR_PAYMENT_BULK_UNKNOWN', `no bulk ${bulkId}; see settle payments list`, {
            exitCode: ExitCode.usage,
          });
        if (bulk.state !== 'unknown' && bulk.state !== 'attention') {
          throw new SettleError(
            'ERR_PAYMENT_NOT_UNRESOLVED',
            `bulk ${bulkId} is ${bulk.state}; only unknown or attention bulks are resolved by hand`,
            { exitCode: ExitCode.usage },
          );
        }
        const cause = `resolved by a person: ${options.reason}`;
        if (options.as === 'at-bank') {
          if (!options.paymentId)
            throw new SettleError('ERR_USAGE', '--as at-bank needs --payment-id (the id the bank shows for it)', {
              exitCode: ExitCode.usage,
            });
          await app.store.bulks.markSent(bulkId, options.paymentId, cause);
          process.stdout.write(
            `bulk ${bulkId} is sent as bank payment ${options.paymentId}; the status job follows it from now on\n`,
          );
        } else if (options.as === 'not-at-bank') {
          await app.store.bulks.markRejected(
            bulkId,
            {
              resolvedBy: 'person',
              reason: options.reason,
              explanation:
                'The bank confirmed it never received these payments; the ERP must produce them again as new payments.',
            },
            cause,
          );
          process.stdout.write(
            `bulk ${bulkId} is closed as not paid; its ${bulk.lineCount} line(s) are reported to the ERP as rejected\n`,
          );
        } else {
          throw new SettleError('ERR_USAGE', '--as is at-bank or not-at-bank', { exitCode: ExitCode.usage });
        }
      } finally {
        await app.close();
      }
    });
  addHeldCommands(command);
  return command;
}
