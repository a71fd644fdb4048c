// `settle reconcile signoff|periods|export`: period sign-off from the command line, as on the
// console's Reconciliation page (docs/reconciliation.md, "Signing a period off"). Signing names
// who (SETTLE_ACTOR or the OS user, and the person behind it) and lands in the audit trail; it is
// refused (exit 1) with the list of the findings that still need a person.
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { signOffPeriod } from '../../../jobs/reconcile/index.js';
import { today } from '../../domain/local-date.js';
import { personDirectory, type Config } from '../../config/index.js';
import { SettleError } from '../../domain/errors.js';
import { formatAmount } from '../../domain/money.js';
import { personOf } from '../../domain/person.js';
import { parseSignoffPeriod } from '../../domain/reconcile/index.js';
import { renderSignoffCsv, renderSignoffHtml } from '../../formats/report/index.js';
import { createApp, type App } from '../../main/app.js';
import type { StoredSignoff } from '../../store/index.js';
import { cliActor } from '../actor.js';
import { context } from '../context.js';

export function reconcileCommand(): Command {
  const command = new Command('reconcile').description(
    'period sign-off: close a month or a day of a company once no finding in it needs a person, list and export the signed periods',
  );
  command
    .command('signoff')
    .description(
      'sign a period (a month YYYY-MM or a day YYYY-MM-DD) of a company off; refused while findings in it need a person',
    )
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--period <period>', 'the month (2026-01) or day (2026-01-05)')
    .option('--note <text>', 'a note kept with the sign-off and in the audit trail')
    .action(async (options: { company: string; period: string; note?: string }, cmd: Command) => {
      await withApp(cmd, async (app, config) => {
        const company = companyOf(config, options.company);
        const { actor, origin } = cliActor();
        const signed = await signOffPeriod(app.store, {
          today: today(app.clock, company.timeZone ?? config.timeZone),
          company: options.company,
          period: options.period,
          actor,
          person: personOf({ id: actor }, personDirectory(config)),
          origin,
          ...(options.note?.trim() ? { note: options.note.trim() } : {}),
        });
        process.stdout.write(
          `${signed.company} ${signed.period} (${signed.from} to ${signed.to}) signed off by ${actor}: ` +
            `${signed.balances.length} account balance(s) and ${signed.totals.length} finding type(s) recorded\n`,
        );
      });
    });
  command
    .command('periods')
    .description('the signed periods, latest first, and those a later finding reopened (with the reason)')
    .option('--company <id>', 'only this company')
    .option('--json', 'print JSON')
    .action(async (options: { company?: string; json?: boolean }, cmd: Command) => {
      await withApp(cmd, async (app) => {
        const periods = await app.store.signoffs.list(options.company);
        if (options.json) return void process.stdout.write(JSON.stringify(periods.map(periodJson), null, 2) + '\n');
        if (periods.length === 0) return void process.stdout.write('no period has been signed off\n');
        for (const p of periods) process.stdout.write(line(p));
      });
    });
  command
    .command('export')
    .description('a signed period as CSV or HTML, with the signer and its state (reopened, and why)')
    .requiredOption('--company <id>', 'the company')
    .requiredOption('--period <period>', 'the month (2026-01) or day (2026-01-05)')
    .option('--format <format>', 'csv or html', 'csv')
    .option('--out <file>', 'write to this file (default: standard output)')
    .action(async (options: { company: string; period: string; format: string; out?: string }, cmd: Command) => {
      if (options.format !== 'csv' && options.format !== 'html')
        throw new SettleError('ERR_USAGE', `--format is csv or html, not "${options.format}"`);
      const { period } = parseSignoffPeriod(options.period);
      await withApp(cmd, async (app, config) => {
        const company = companyOf(config, options.company);
        const signed = await app.store.signoffs.get(options.company, period);
        if (!signed)
          throw new SettleError(
            'ERR_PERIOD_NOT_SIGNED',
            `${options.company} ${period} is not signed off; see settle reconcile periods`,
            { values: { company: options.company, period } },
          );
        const content =
          options.format === 'csv'
            ? renderSignoffCsv(signed)
            : renderSignoffHtml(signed, {
                timeZone: company.timeZone ?? config.timeZone,
                companyName: company.name,
                locale: company.locale ?? config.locale,
              });
        if (options.out) await writeFile(options.out, content);
        else process.stdout.write(content);
      });
    });
  return command;
}

function companyOf(config: Config, id: string): Config['companies'][number] {
  const company = config.companies.find((c) => c.id === id);
  if (!company)
    throw new SettleError(
      'ERR_USAGE',
      `no company ${id} in the configuration (${config.companies.map((c) => c.id).join(', ')})`,
    );
  return company;
}

/** A signed period as docs/cli-json.md describes it: amounts as decimal strings, unknowns null. */
export function periodJson(p: StoredSignoff) {
  const money = (minor: bigint | undefined, currency: string) =>
    minor === undefined ? null : formatAmount({ minor, currency });
  return {
    company: p.company,
    period: p.period,
    from: p.from,
    to: p.to,
    state: p.state,
    signedBy: p.signedBy,
    signedPerson: p.signedPerson,
    signedAt: p.signedAt.toISOString(),
    note: p.note ?? null,
    balances: p.balances.map((b) => ({
      account: b.accountIban,
      currency: b.currency,
      opening: money(b.opening, b.currency),
      sent: money(b.sent, b.currency),
      bookedOut: money(b.bookedOut, b.currency),
      bookedIn: money(b.bookedIn, b.currency),
      closing: money(b.closing, b.currency),
      reported: money(b.reported, b.currency),
      difference: money(b.difference, b.currency),
    })),
    totals: p.totals.map((t) => ({
      type: t.type,
      findings: t.findings,
      decided: t.decided,
      amounts: t.amounts.map((m) => ({ amount: formatAmount(m), currency: m.currency })),
    })),
    reopenedAt: p.reopenedAt?.toISOString() ?? null,
    reopenedReason: p.reopenedReason ?? null,
  };
}

function line(p: StoredSignoff): string {
  const state =
    p.state === 'signed'
      ? 'signed'
      : `REOPENED ${p.reopenedAt?.toISOString().slice(0, 16) ?? ''}: ${p.reopenedReason ?? ''}`;
  return `${p.company}  ${p.period}  ${p.from}..${p.to}  ${state}\n    signed by ${p.signedBy} (${p.signedPerson}) ${p.signedAt.toISOString().slice(0, 16)}Z\n`;
}

async function withApp(cmd: Command, fn: (app: App, config: Config) => Promise<void>): Promise<void> {
  const { config, logger } = context(cmd);
  const app = await createApp(config, logger);
  try {
    await fn(app, config);
  } finally {
    await app.close();
  }
}
