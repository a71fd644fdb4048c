// `settle health`: the bureau's board as a table (or --json), one row per company with the
// figures of the console's Board page, from the same store query (src/main/board.ts): whether it
// is onboarded, last night's steps, rejected files, payments held or unknown and their money,
// approvals waiting, open findings, consents and approval links expiring; then the dead-man
// deadlines (alerts.nightlyBy, alerts.statementsBy). A missed deadline is raised
// like `settle serve` raises it (error log line, alert channels once per deadline) and exits 1:
// a systemd timer beside `settle run nightly` thereby alerts when the night's work did not
// happen. A company that is not onboarded (no usable consent or no enabled account) is never
// green: it is named with what is missing and the commands that fix it, and exits 1 too.
import { Command, Option } from 'commander';
import { BOARD_SORTS, type BoardSort } from '../../../jobs/board/index.js';
import { deadlineView } from '../../domain/deadline.js';
import { ExitCode } from '../../domain/errors.js';
import { createAlerts } from '../../main/alerts.js';
import { createApp } from '../../main/app.js';
import { DeadlineWatch } from '../../main/deadlines.js';
import { textTable } from '../../formats/report/index.js';
import { displayMoney } from '../../domain/display.js';
import { formatAmount } from '../../domain/money.js';
import type { BoardCompany } from '../../store/index.js';
import { context } from '../context.js';
import { readWholeBoard } from '../../main/board.js';

export function healthCommand(): Command {
  return new Command('health')
    .description(
      "the bureau's board: each company onboarded or not, last night's steps, what waits on a person and the money at stake, those needing attention first; then the configured deadlines; exits 1 when a company is not onboarded or a deadline was missed (and alerts it)",
    )
    .option('--json', 'print JSON for scripts')
    .addOption(
      new Option(
        '--sort <order>',
        "attention (those needing it first) or name (the companies' names as the configured language sorts them)",
      )
        .choices([...BOARD_SORTS])
        .default('attention'),
    )
    .action(async (opts: { json?: boolean; sort: BoardSort }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      const alerts = createAlerts(app);
      try {
        const successes = await app.store.jobSuccesses.list();
        const deadlines = await new DeadlineWatch(app, alerts).check();
        const { rows: board, onboarding } = await readWholeBoard(app, opts.sort);
        const names = new Map(config.companies.map((c) => [c.id, c.name]));
        const notOnboarded = onboarding.filter((o) => !o.onboarded);
        if (deadlines.some((d) => d.missed) || notOnboarded.length > 0) process.exitCode = ExitCode.needsPerson;
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify(
              {
                lastSuccess: successes.map((s) => ({
                  job: s.job,
                  company: s.company,
                  at: s.succeededAt.toISOString(),
                  runId: s.runId,
                })),
                deadlines: deadlines.map(deadlineView),
                deadlineMissed: deadlines.some((d) => d.missed),
                onboarding,
                notOnboarded: notOnboarded.map((o) => o.company),
                companies: board.map((r) => boardJson(r, names.get(r.company))),
              },
              null,
              2,
            )}\n`,
          );
          return;
        }
        const missing = new Map(onboarding.map((o) => [o.company, o.missing.join(', ') || '-']));
        // People act on a company's name; the id is what the commands that fix it take.
        const called = (id: string) => {
          const name = names.get(id);
          return name === undefined || name === id ? id : `${name} (${id})`;
        };
        const lines = textTable(
          [...BOARD_HEAD],
          board.map((r) => [
            r.company,
            names.get(r.company) ?? '-',
            r.onboarded ? 'yes' : 'NO',
            missing.get(r.company) ?? '-',
            lastNight(r),
            String(r.rejectedFiles),
            String(r.heldPayments),
            String(r.unknownPayments),
            String(r.approvalsWaiting),
            String(r.openFindings),
            r.atStake.map((m) => displayMoney(m)).join(', ') || '-',
            String(r.consentsExpiring),
            String(r.linksExpiring),
          ]),
          new Set([5, 6, 7, 8, 9, 11, 12]),
        );
        for (const o of notOnboarded)
          lines.push(`${called(o.company)}: ${o.why}; to fix it:`, ...o.fix.map((command) => `  ${command}`));
        for (const d of deadlines)
          lines.push(
            `${d.missed ? 'MISSED' : 'ok'}  ${d.job} ${called(d.company)} by ${d.by} ${d.timeZone} (due ${d.dueAt.toISOString()}): ${d.lastSuccess ? `last completed ${d.lastSuccess.toISOString()}` : 'never completed'}`,
          );
        if (deadlines.length === 0) lines.push('no deadlines configured (alerts.nightlyBy, alerts.statementsBy)');
        process.stdout.write(lines.map((l) => `${l}\n`).join(''));
      } finally {
        await alerts.close();
        await app.close();
      }
    });
}

const BOARD_HEAD = [
  'COMPANY',
  'NAME',
  'ONBOARDED',
  'MISSING',
  'LAST NIGHT',
  'REJECTED',
  'HELD',
  'UNKNOWN',
  'APPROVALS',
  'FINDINGS',
  'AT STAKE',
  'CONSENTS EXPIRING',
  'LINKS EXPIRING',
] as const;

/** "9/9 done", or the steps that did not complete in the 24 hours before now. */
function lastNight(r: BoardCompany): string {
  const missed = r.steps.filter((s) => !s.done).map((s) => s.job);
  const done = `${r.steps.length - missed.length}/${r.steps.length} done`;
  return missed.length === 0 ? done : `${done}, not: ${missed.join(' ')}`;
}

/** A board row as `settle health --json` prints it (docs/cli-json.md). */
function boardJson(r: BoardCompany, name: string | undefined) {
  return {
    company: r.company,
    name: name ?? null,
    onboarded: r.onboarded,
    needsAttention: r.needsAttention,
    lastNight: r.steps.map((s) => ({ job: s.job, done: s.done, lastSuccess: s.lastSuccess?.toISOString() ?? null })),
    stepsMissed: r.stepsMissed,
    rejectedFiles: r.rejectedFiles,
    heldPayments: r.heldPayments,
    unknownPayments: r.unknownPayments,
    approvalsWaiting: r.approvalsWaiting,
    openFindings: r.openFindings,
    atStake: r.atStake.map((m) => ({ currency: m.currency, amount: formatAmount(m) })),
    consentsExpiring: r.consentsExpiring,
    linksExpiring: r.linksExpiring,
  };
}
