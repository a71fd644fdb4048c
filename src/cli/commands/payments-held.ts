// `settle payments held|release|drop`: the payments held as likely duplicates of a payment
// accepted from another file (docs/runbook.md, "A payment is held as a likely duplicate"), or by
// a payment control (docs/controls.md), each with its rule ids and evidence.
import type { Command } from 'commander';
import { decideHold } from '../../../jobs/controls/index.js';
import { cliActor } from '../actor.js';
import { createApp } from '../../main/app.js';
import type { HeldPayment, HoldDecision } from '../../store/index.js';
import { recordedSentence, type Locale } from '../../i18n/index.js';
import { cliLocale, context } from '../context.js';

/** JSON stays as scripts have always read it: the English reason, no recorded text. */
function withoutText({
  reasonText: _,
  evidenceText: __,
  ...h
}: HeldPayment): Omit<HeldPayment, 'reasonText' | 'evidenceText'> {
  return h;
}

/** The hold's reason in `locale`: the words it recorded, else the English of the row. */
function reasonIn(h: HeldPayment, locale: Locale): string {
  return recordedSentence(locale, h.reason, h.reasonText);
}

function line(h: HeldPayment, locale: Locale): string {
  const decided = h.decision
    ? `  ${h.decision} by ${h.decidedBy ?? '?'} at ${h.decidedAt?.toISOString() ?? '?'}: ${h.decisionReason ?? ''}`
    : '';
  const second = h.firstRelease ? `; released once by ${h.firstRelease.by}, waiting for a second person` : '';
  const rules = `${h.rules.join(',')}${h.releasesNeeded === 2 ? ` (two people${second})` : ''}`;
  // A control hold's reason carries its evidence; a duplicate's evidence is what the controls saw besides.
  const also =
    h.rules.includes('duplicate') && h.evidence ? `; also ${recordedSentence(locale, h.evidence, h.evidenceText)}` : '';
  return `${h.id}  ${h.company}  ${h.fileName} line ${h.lineNumber}  ${h.endToEndId}  held ${h.heldAt.toISOString()}  ${rules}  ${reasonIn(h, locale)}${also}${decided}\n`;
}

export function addHeldCommands(command: Command): void {
  command
    .command('held')
    .description(
      'payments held as likely duplicates or by payment controls, waiting for a person to release or drop them',
    )
    .option('--company <id>', 'only this company')
    .option('--all', 'also those already released or dropped, with who decided, when and why')
    .option('--json', 'print JSON')
    .action(async (options: { company?: string; all?: boolean; json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      try {
        const held = await app.store.held.list({
          ...(options.company ? { company: options.company } : {}),
          ...(options.all ? { all: true } : {}),
        });
        if (options.json) return void process.stdout.write(JSON.stringify(held.map(withoutText), null, 2) + '\n');
        if (held.length === 0) return void process.stdout.write('no held payments\n');
        for (const h of held) process.stdout.write(line(h, cliLocale(config, h.company)));
      } finally {
        await app.close();
      }
    });
  const decide = (name: string, decision: HoldDecision, description: string) =>
    command
      .command(name)
      .description(description)
      .argument('<payment>', 'the held id, the payment id or the end-to-end id (settle payments held)')
      .requiredOption('--reason <text>', 'why; kept with the decision, with who (SETTLE_ACTOR or your user) and when')
      .option('--company <id>', 'the company, when the end-to-end id is used by several')
      .action(async (ref: string, options: { reason: string; company?: string }, cmd: Command) => {
        const { config, logger } = context(cmd);
        const app = await createApp(config, logger);
        try {
          const held = await decideHold(app.store, {
            ref,
            decision,
            reason: options.reason,
            ...cliActor(),
            ...(options.company ? { company: options.company } : {}),
          });
          const where = `${held.endToEndId} (${held.fileName} line ${held.lineNumber})`;
          process.stdout.write(
            decision === 'released' && held.decision === undefined
              ? `${where} released once by ${held.firstRelease?.by ?? '?'}: it needs a second, different person's release in the console before it is sent\n`
              : decision === 'released'
                ? `${where} released by ${held.decidedBy ?? '?'}: the next submit sends it\n`
                : `${where} dropped by ${held.decidedBy ?? '?'}: never sent; the ERP's status file reports it cancelled\n`,
          );
        } finally {
          await app.close();
        }
      });
  decide('release', 'released', 'send a held payment after all: it is not a duplicate');
  decide('drop', 'dropped', 'never send a held payment: it is a duplicate');
}
