// `settle findings list|ack|reopen`: the reconciliation findings that need a person, and the
// decisions about them. A decision names who (SETTLE_ACTOR or the OS user), why, and from
// where, and lands in the audit trail; the next reconcile run honours it for as long as the
// finding's facts stay the same (docs/reconciliation.md, "Acknowledging a finding").
import { Command } from 'commander';
import { decisionMismatch } from '../../../jobs/reconcile/index.js';
import { SettleError } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { createApp, type App } from '../../main/app.js';
import type { FindingDecisionKind, StoredFinding } from '../../store/index.js';
import { findingSubjectWords, recordedSentence, translate, type Locale } from '../../i18n/index.js';
import { cliActor } from '../actor.js';
import { cliLocale, context, timeZoneOf } from '../context.js';

export function findingsCommand(): Command {
  const command = new Command('findings').description(
    'reconciliation findings that need a person: list them, acknowledge them, confirm or reject proposed matches, reopen them',
  );
  command
    .command('list')
    .description('findings of the latest reconciliation run that need a person or were acknowledged')
    .option('--company <id>', 'only this company')
    .option('--all', 'also findings no longer in the latest run')
    .option('--json', 'print JSON')
    .action(async (options: { company?: string; all?: boolean; json?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const found = await app.store.findings.list({
          ...(options.company ? { company: options.company } : {}),
          ...(options.all ? { all: true } : {}),
        });
        // JSON stays as scripts have always read it: the English summary, no recorded text.
        if (options.json) return void process.stdout.write(JSON.stringify(found.map(findingJson), null, 2) + '\n');
        // Each finding in its company's language; an empty list in the named company's (else the install's).
        const none = translate(cliLocale(app.config, options.company), 'cli.findings.none');
        if (found.length === 0) return void process.stdout.write(`${none}\n`);
        for (const f of found)
          process.stdout.write(line(f, cliLocale(app.config, f.company), timeZoneOf(app.config, f.company)));
      });
    });
  decision(command, 'ack', 'acknowledged', 'record that a person looked at a finding and it needs nothing more');
  decision(command, 'confirm', 'confirmed', 'confirm a proposed match: it stays matched while its facts stay the same');
  decision(
    command,
    'reject',
    'rejected',
    'reject a proposed match: the payment or credit and the booking stay unmatched',
  );
  decision(command, 'reopen', 'open', 'make an acknowledged, confirmed or rejected finding need a person again');
  return command;
}

function decision(parent: Command, name: string, kind: FindingDecisionKind, description: string): void {
  parent
    .command(name)
    .description(description)
    .argument('<id>', 'the finding id (settle findings list)')
    .requiredOption('--reason <text>', 'why, in your words; kept in the audit trail')
    .option('--company <id>', 'the company, when several have a finding with this id')
    .action(async (id: string, options: { reason: string; company?: string }, cmd: Command) => {
      if (options.reason.trim() === '') throw new SettleError('ERR_USAGE', '--reason must say why');
      await withApp(cmd, async (app) => {
        const matches = await app.store.findings.find(id, options.company);
        if (matches.length === 0)
          throw new SettleError('ERR_FINDING_UNKNOWN', `no finding ${id}; see settle findings list`, {
            values: { id, company: 'none' },
          });
        if (matches.length > 1)
          throw new SettleError(
            'ERR_USAGE',
            `finding ${id} exists for ${matches.map((m) => m.company).join(', ')}; name one with --company`,
          );
        const mismatch = decisionMismatch(matches[0]!.type, kind);
        if (mismatch !== undefined)
          throw new SettleError(
            'ERR_USAGE',
            mismatch === 'not-a-proposal'
              ? `finding ${id} is a ${matches[0]!.type} finding, not a proposed match; acknowledge it with settle findings ack`
              : `finding ${id} is a proposed match; confirm or reject it (settle findings confirm|reject)`,
          );
        const { actor, origin } = cliActor();
        const decided = await app.store.findings.decide(matches[0]!.company, id, {
          decision: kind,
          actor,
          origin,
          reason: options.reason.trim(),
        });
        process.stdout.write(
          kind === 'open'
            ? `finding ${id} needs a person again (reopened by ${actor})\n`
            : kind === 'rejected'
              ? `finding ${id} rejected by ${actor}; the next run leaves the pair unmatched\n`
              : `finding ${id} ${kind} by ${actor}; it stays quiet while its facts stay the same\n`,
        );
        if (!decided.present)
          process.stdout.write('note: the finding was not in the latest reconciliation run of its company\n');
      });
    });
}

/**
 * A finding as `settle findings list --json` prints it (docs/cli-json.md): the English summary, no
 * recorded text, and its money as a decimal string beside its currency (JSON has no bigint).
 */
function findingJson({ summaryText: _, amount, ...f }: StoredFinding) {
  return { ...f, ...(amount ? { amount: { currency: amount.currency, amount: formatAmount(amount) } } : {}) };
}

function line(f: StoredFinding, locale: Locale, timeZone: string): string {
  const decided =
    f.decision === 'open'
      ? translate(locale, 'cli.findings.open')
      : `${translate(locale, 'cli.findings.decided', {
          decision: f.decision,
          person: f.decidedBy ?? '?',
          date: f.decidedAt?.toISOString().slice(0, 10) ?? '',
        })}${f.decidedHash !== f.factHash ? translate(locale, 'cli.findings.factsChanged') : ''}`;
  return `${f.id}  ${f.company}  ${f.type}  ${decided}\n    ${findingSubjectWords(locale, f.subject)}: ${recordedSentence(locale, f.summary, f.summaryText, { timeZone })}\n`;
}

async function withApp(cmd: Command, fn: (app: App) => Promise<void>): Promise<void> {
  const { config, logger } = context(cmd);
  const app = await createApp(config, logger);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}
