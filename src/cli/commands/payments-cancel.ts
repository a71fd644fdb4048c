// `settle payments cancel`: cancel a payment while it waits (docs/cancellation.md; runbook
// "Cancel a payment"). The use case is jobs/cancel/cancel.ts; this file only asks the person
// and prints. Cancelling a line of a bulk the bank already has cancels the whole bulk, so every
// line of it is shown and the person says yes (or gives --yes) before anything is sent.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { cancelPayment, type CancelResult } from '../../../jobs/cancel/index.js';
import { personDirectory } from '../../config/index.js';
import { SettleError } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { personOf } from '../../domain/person.js';
import { createApp } from '../../main/app.js';
import type { PaymentToCancel } from '../../store/index.js';
import { cliActor } from '../actor.js';
import { context } from '../context.js';

interface CancelOptions {
  reason?: string;
  company?: string;
  yes?: boolean;
  json?: boolean;
  confirm?: string;
}

function lineText(l: PaymentToCancel): string {
  const amount = formatAmount({ minor: l.amountMinor, currency: l.currency });
  return `  ${l.endToEndId}  ${l.fileName} line ${l.lineNumber}  ${amount} ${l.currency}  to ${l.creditorName}  (${l.state})\n`;
}

function resultText(r: Exclude<CancelResult, { outcome: 'confirm' }>): string {
  const named = r.lines.map((l) => l.endToEndId).join(', ');
  switch (r.outcome) {
    case 'awaiting-confirmation':
      return `cancellation ${r.request.id} of ${named} asked by ${r.request.requestedBy}; a second person confirms it on the console's Cancellations page\n`;
    case 'at-bank':
      return `cancellation ${r.request.id}: the bank took the request for ${named} but has not confirmed it yet; the status job finishes it, or run the same command again\n`;
    case 'already':
      return `${named} was already cancelled (${r.request.outcome ?? '?'} by ${r.request.confirmedBy ?? r.request.requestedBy} at ${r.request.outcomeAt?.toISOString() ?? '?'})\n`;
    case 'withdrawn':
    case 'cancelled': {
      const head =
        r.outcome === 'withdrawn'
          ? `${named} withdrawn: never sent to the bank; the ERP's status file reports it cancelled\n`
          : `${named} cancelled at the bank (its whole bulk); the ERP's status file reports it cancelled\n`;
      const resent =
        r.resent.length === 0
          ? ''
          : `the other ${r.resent.length} line(s) of the bulk go again in a new bulk ${r.request.resentBulkId ?? ''} with the next submit:\n${r.resent.map(lineText).join('')}`;
      return head + resent;
    }
  }
}

function resultJson(r: CancelResult): unknown {
  const line = (l: PaymentToCancel) => ({
    endToEndId: l.endToEndId,
    file: l.fileName,
    line: l.lineNumber,
    amount: formatAmount({ minor: l.amountMinor, currency: l.currency }),
    currency: l.currency,
    creditorName: l.creditorName,
    state: l.state,
  });
  if (r.outcome === 'confirm')
    return { outcome: r.outcome, company: r.company, lines: r.lines.map(line), bulkLines: r.bulkLines.map(line) };
  return {
    outcome: r.outcome,
    requestId: r.request.id,
    company: r.request.company,
    requestedBy: r.request.requestedBy,
    confirmedBy: r.request.confirmedBy ?? null,
    lines: r.lines.map(line),
    resentBulkId: r.request.resentBulkId ?? null,
    resent: 'resent' in r ? r.resent.map(line) : [],
  };
}

/** Shows every line of the bulk and asks; false when nobody can be asked. */
async function ask(r: Extract<CancelResult, { outcome: 'confirm' }>): Promise<boolean> {
  process.stdout.write(
    `The bank cancels whole bulks only. Cancelling ${r.lines.map((l) => l.endToEndId).join(', ')} cancels this bulk of ${r.bulkLines.length} payments at the bank:\n`,
  );
  for (const l of r.bulkLines) process.stdout.write(lineText(l));
  process.stdout.write('Once the bank confirms, the other payments are sent again in a new bulk, once.\n');
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question('Cancel the bulk? [y/N] ')).trim());
  } finally {
    rl.close();
  }
}

export function addCancelCommand(command: Command): void {
  command
    .command('cancel')
    .description('cancel a payment that has not left the bank (not yet sent, RCVD, or waiting for approval)')
    .argument('[payment]', 'an end-to-end id, a bulk id (settle payments list), or FILE:LINE as the ERP exported it')
    .option('--reason <text>', 'why; kept with who (SETTLE_ACTOR or your user) in the audit trail')
    .option('--company <id>', 'the company, when the reference is used by several')
    .option('--yes', 'cancel the whole bulk at the bank without asking (its payments are still printed)')
    .option('--confirm <request>', 'four eyes: refused here; a second person confirms in the console')
    .option('--json', 'print JSON (docs/cli-json.md)')
    .action(async (ref: string | undefined, options: CancelOptions, cmd: Command) => {
      // A second decision needs an identity nobody can choose: the command line's actor is
      // self-declared (SETTLE_ACTOR) or a shared OS account, so four eyes confirm in the console.
      if (options.confirm !== undefined)
        throw new SettleError(
          'ERR_CANCEL_CONFIRM_IN_CONSOLE',
          `cancellation ${options.confirm} is confirmed by a second person signed in to the console (its Cancellations page); the command line cannot tell who you are. Nothing was done.`,
          { values: { id: options.confirm } },
        );
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const deps = { store: app.store, bank: app.bank(), logger };
        const who = cliActor();
        if (ref === undefined || options.reason === undefined)
          throw new SettleError('ERR_USAGE', 'give the payment and --reason');
        const input = {
          ref,
          reason: options.reason,
          ...who,
          person: personOf({ id: who.actor }, personDirectory(config)),
          companies: config.companies,
          ...(options.company ? { company: options.company } : {}),
        };
        let result: CancelResult = await cancelPayment(deps, { ...input, yes: options.yes === true });
        if (result.outcome === 'confirm') {
          if (options.json || !(await ask(result)))
            throw new SettleError(
              'ERR_CANCEL_CONFIRMATION_NEEDED',
              options.json || !process.stdin.isTTY
                ? `cancelling ${ref} cancels its whole bulk of ${result.bulkLines.length} payments at the bank (${result.bulkLines.map((l) => l.endToEndId).join(', ')}); nothing was done. Run it again with --yes to go ahead.`
                : 'not cancelled: you did not say yes',
            );
          result = await cancelPayment(deps, { ...input, yes: true });
        }
        if (result.outcome === 'confirm') throw new SettleError('ERR_INTERNAL', 'confirmation asked twice');
        process.stdout.write(options.json ? JSON.stringify(resultJson(result), null, 2) + '\n' : resultText(result));
      } finally {
        await app.close();
      }
    });
}
