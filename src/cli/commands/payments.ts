// `settle payments list|show|resolve`: what an operator needs when a bulk's outcome is unknown
// (docs/runbook.md, "A payment is unknown"): see the bulks, follow one payment's whole story,
// and record what the bank confirmed — never by sending again, always with a reason that stays
// in the transition log and, with who decided and from where, in the audit trail.
import type { RecordedText } from '../../domain/recorded-text.js';
import { Command, InvalidArgumentError } from 'commander';
import { paymentStoryJson, paymentStoryText, resolveBulkByHand } from '../../../jobs/payments/index.js';
import { BULK_STATES, type BulkState } from '../../domain/states.js';
import { SettleError } from '../../domain/errors.js';
import { isLocalDate, type LocalDate } from '../../domain/local-date.js';
import { formatAmount } from '../../domain/money.js';
import { createApp } from '../../main/app.js';
import type { StoredBulk } from '../../store/index.js';
import { cliActor } from '../actor.js';
import { cliLocale, context, timeZoneOf } from '../context.js';
import { printTable } from '../table.js';
import { addCancelCommand } from './payments-cancel.js';
import { addHeldCommands } from './payments-held.js';

const state = (value: string): BulkState | 'all' => {
  if (value !== 'all' && !(BULK_STATES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`one of ${BULK_STATES.join(', ')}, or all`);
  return value as BulkState | 'all';
};

/** A bulk as `payments list --json` prints it: amounts as decimal strings (docs/cli-json.md). */
function bulkJson(b: StoredBulk) {
  return {
    id: b.id,
    company: b.company,
    fileId: b.fileId,
    state: b.state,
    debtorAccount: b.debtorIban,
    executionDate: b.executionDate,
    payments: b.lineCount,
    totals: Object.entries(b.totals).map(([currency, minor]) => ({
      currency,
      amount: formatAmount({ minor: BigInt(minor), currency }),
    })),
    bankPaymentId: b.bankPaymentId ?? null,
    bankStatus: b.bankStatus ?? null,
    idempotencyKey: b.idempotencyKey,
    attempts: b.attempts,
  };
}

export function paymentsCommand(): Command {
  const command = new Command('payments').description(
    'inspect bulk credit transfers, resolve those whose outcome is unknown, release or drop held likely duplicates, cancel a payment that waits',
  );
  command
    .command('list')
    .description('bulks by state (default: the ones that need a person: unknown and attention)')
    .option(
      '--state <state...>',
      `any of ${BULK_STATES.join(', ')}, or all`,
      (v: string, all: (BulkState | 'all')[] = []) => [...all, state(v)],
    )
    .option('--company <id>', 'only this company')
    .option('--file <file>', "only bulks of this payment file (its name or settle's file id)")
    .option('--date <YYYY-MM-DD>', 'only bulks with this execution date', (v) => {
      if (!isLocalDate(v)) throw new InvalidArgumentError('expected a date YYYY-MM-DD');
      return v;
    })
    .option('--account <iban>', 'only bulks from this debtor account')
    .option('--json', 'print JSON (docs/cli-json.md)')
    .action(
      async (
        options: {
          state?: (BulkState | 'all')[];
          company?: string;
          file?: string;
          date?: LocalDate;
          account?: string;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const { config, logger } = context(cmd);
        const app = await createApp(config, logger);
        try {
          const states = options.state ?? ['unknown', 'attention'];
          const bulks = await app.store.paymentViews.listBulks({
            ...(states.includes('all') ? {} : { states: states as BulkState[] }),
            ...(options.company ? { company: options.company } : {}),
            ...(options.file ? { file: options.file } : {}),
            ...(options.date ? { executionDate: options.date } : {}),
            ...(options.account ? { account: options.account } : {}),
          });
          const shown = bulks.map(bulkJson);
          if (options.json) return void process.stdout.write(JSON.stringify(shown, null, 2) + '\n');
          if (shown.length === 0) return void process.stdout.write('no bulks match\n');
          printTable(
            ['Bulk', 'Company', 'State', 'Debtor account', 'Execution date', 'Payments', 'Amount', 'Bank payment id'],
            shown.map((b) => [
              b.id,
              b.company,
              b.state,
              b.debtorAccount,
              b.executionDate,
              String(b.payments),
              b.totals.map((t) => `${t.amount} ${t.currency}`).join(', '),
              b.bankPaymentId ?? '-',
            ]),
            new Set([5, 6]),
          );
        } finally {
          await app.close();
        }
      },
    );
  command
    .command('show')
    .description(
      "one payment's whole story: file and line, every state with time and source, bank ids, basket, bookings",
    )
    .argument(
      '<reference>',
      "the ERP's end-to-end id or creditor reference, the bank's payment id, or settle's payment id",
    )
    .option('--company <id>', 'only this company')
    .option('--json', 'print JSON (docs/cli-json.md): a list, one entry per payment the reference names')
    .action(async (reference: string, options: { company?: string; json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const payments = await app.store.paymentViews.find(reference, options.company);
        if (payments.length === 0)
          throw new SettleError(
            'ERR_PAYMENT_NOT_FOUND',
            `no payment has the reference "${reference}" (an end-to-end id, creditor reference, bank payment id or payment id); see settle payments list --state all`,
            { values: { reference } },
          );
        const stories = [];
        // Each move's cause as recorded text, beside the JSON (which keeps the English): the text's language.
        const causes: (RecordedText | undefined)[][] = [];
        for (const payment of payments) {
          const story = await app.store.paymentViews.story(payment);
          stories.push(paymentStoryJson(story));
          causes.push(story.history.map((h) => h.said));
        }
        if (options.json) return void process.stdout.write(JSON.stringify(stories, null, 2) + '\n');
        process.stdout.write(
          stories
            .map((s, i) => paymentStoryText(s, timeZoneOf(config, s.company), cliLocale(config, s.company), causes[i]))
            .join('\n'),
        );
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
      'at-bank (the bank has it; give --payment-id) or not-at-bank (the bank confirms it does not exist: the payments are reported as rejected and the ERP must produce new payments)',
    )
    .option('--payment-id <id>', "the bank's payment id, with --as at-bank")
    .requiredOption('--reason <text>', 'who confirmed what, and when; kept in the transition log')
    .action(async (bulkId: string, options: { as: string; paymentId?: string; reason: string }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        if (options.as !== 'at-bank' && options.as !== 'not-at-bank')
          throw new SettleError('ERR_USAGE', '--as is at-bank or not-at-bank');
        const bulk = await resolveBulkByHand(app.store, {
          bulkId,
          as: options.as,
          ...(options.paymentId ? { paymentId: options.paymentId } : {}),
          reason: options.reason,
          ...cliActor(),
        });
        process.stdout.write(
          options.as === 'at-bank'
            ? `bulk ${bulkId} is sent as bank payment ${options.paymentId ?? ''}; the status job follows it from now on\n`
            : `bulk ${bulkId} is closed as not paid; its ${bulk.lineCount} line(s) are reported to the ERP as rejected\n`,
        );
      } finally {
        await app.close();
      }
    });
  addHeldCommands(command);
  addCancelCommand(command);
  return command;
}
