// `settle run <job>`: runs one job of the nightly chain now. Exit 1 when the run produced
// something a person must look at (a rejected or duplicate file, …), 0 otherwise.
import { Command } from 'commander';
import { runPickup, type PickedFile } from '../../../jobs/pickup/index.js';
import { runReconcile } from '../../../jobs/reconcile/index.js';
import { isLocalDate, type LocalDate } from '../../domain/local-date.js';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { alertAfterRun, createAlerts, nightlySummary } from '../../main/alerts.js';
import { createApp, newRunId } from '../../main/app.js';
import { runNightlyDryRun } from '../../main/dry-run.js';
import {
  runNightly,
  type StepResult,
  needsPerson,
  pickupOutcome,
  reconcileOutcome,
  describeStep,
} from '../../../jobs/nightly/index.js';
import { nightlyDeps } from '../../main/nightly-deps.js';
import { systemClock } from '../../domain/clock.js';
import { forEachCompany, unitClaims } from '../../main/work-units.js';
import { cliLocale } from '../cli-locale.js';
import { context, selectCompanies } from '../context.js';
import { finishUnits } from '../claimed-units.js';
import { recordedRun } from '../recorded-run.js';
import { nightlyJson, pickupJson, reconcileJson } from '../run-json.js';
import { addPaymentJobs } from './run-payments.js';
import { addPurgeJob } from './run-purge.js';
import { addStatementJobs } from './run-statements.js';

interface RunOptions {
  company?: string[];
  json?: boolean;
  dryRun?: boolean;
  from?: string;
  to?: string;
}

export function runCommand(): Command {
  const command = new Command('run').description('run one job of the nightly chain now');
  command
    .command('pickup')
    .description('take stable payment files from each company inbox, validate, store, archive or reject them')
    .option('--company <id...>', 'only these companies')
    .option('--json', 'print the run summary as JSON')
    .action(async (options: RunOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'pickup', runId, async () => {
          const deps = app.pickupDeps(runId);
          const picked = await forEachCompany(units, 'pickup', companies, (c) => runPickup(deps, [c]));
          if (options.json) printJson(pickupJson(picked));
          else printPicked(picked, units.done);
          finishUnits(units);
          return { exitCode: needsPerson(pickupOutcome(picked)) ? ExitCode.needsPerson : ExitCode.ok };
        });
      } finally {
        units.close();
        await app.close();
      }
    });
  command
    .command('reconcile')
    .description(
      'match sent payments against booked transactions and write CSV + HTML reports for finance (exit 1 when a finding needs a person)',
    )
    .option('--company <id...>', 'only these companies')
    .option('--from <date>', 'first execution/booking date (default: today minus reconcile.lookBack)')
    .option('--to <date>', 'last execution/booking date (default: today)')
    .option('--json', 'print the run summary as JSON')
    .action(async (options: RunOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const period = { ...dateOption('--from', options.from), ...dateOption('--to', options.to) };
      const app = await createApp(config, logger);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'reconcile', runId, async () => {
          const deps = app.reconcileDeps(runId);
          const results = await forEachCompany(units, 'reconcile', companies, (c) => runReconcile(deps, [c], period));
          if (options.json) printJson(reconcileJson(results));
          else
            for (const r of results) {
              const attention = r.needsPerson ? `${r.summary.needingPerson} need a person` : 'nothing needs a person';
              process.stdout.write(
                `${r.company}  ${r.from} to ${r.to}: ${r.summary.findings} finding(s), ${attention} → ${r.html}, ${r.csv}\n`,
              );
            }
          finishUnits(units);
          return { exitCode: needsPerson(reconcileOutcome(results)) ? ExitCode.needsPerson : ExitCode.ok };
        });
      } finally {
        units.close();
        await app.close();
      }
    });
  command
    .command('nightly')
    .description(
      'run the whole chain: pickup, submit, approve, status, status reports, fetch, export, reconcile (exit 1: a person is needed; 3: a step failed)',
    )
    .option('--company <id...>', 'only these companies')
    .option(
      '--dry-run',
      'do everything up to, not including, bank writes and file changes, and print what would happen; the database is left as it was',
    )
    .option('--json', 'print the run summary as JSON (no progress lines)')
    .action(async (options: RunOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      // One company run reads its own language (as `run submit` does), else the top-level one.
      const locale = cliLocale(config, companies.length === 1 ? companies[0]!.id : undefined);
      const onStep = (s: StepResult): void => {
        if (options.json) return;
        process.stdout.write(
          `${s.claimedElsewhere ? '-' : s.ok ? (s.needsPerson ? '!' : '✓') : '✗'} ${s.step.padEnd(13)} ${companies.length > 1 && s.company ? `${s.company}: ` : ''}${describeStep(s, locale)}\n`,
        );
      };
      if (options.dryRun) {
        if (!options.json)
          process.stdout.write(
            'DRY RUN — nothing is sent to the bank, no file is moved or written, the database is left as it was\n',
          );
        const { nightly, actions } = await runNightlyDryRun(config, logger, systemClock, companies, { onStep });
        process.exitCode = nightly.exitCode;
        if (options.json)
          return printJson({
            dryRun: true,
            ...nightlyJson(nightly),
            actions: actions.map((a) => ({ company: a.company ?? null, what: a.what })),
          });
        process.stdout.write(
          actions.length ? '\nwhat a real run would do now:\n' : '\na real run would change nothing now\n',
        );
        for (const a of actions) process.stdout.write(`  ${a.company ? `${a.company}  ` : ''}${a.what}\n`);
        return;
      }
      const app = await createApp(config, logger);
      const alerts = createAlerts(app);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'nightly', runId, async () => {
          const startedAt = app.clock.now();
          const result = await runNightly(nightlyDeps(app), companies, { runId, onStep, units });
          if (options.json) printJson({ dryRun: false, ...nightlyJson(result) });
          finishUnits(units);
          const summary = nightlySummary(result, startedAt, app.clock.now());
          // Under a systemd timer this is the only process: it sends the alerts `settle serve` would.
          await alertAfterRun(app, alerts, summary);
          return { exitCode: result.exitCode, counts: summary.counts, findings: summary.findings.map((f) => f.key) };
        });
      } finally {
        units.close();
        await alerts.close();
        await app.close();
      }
    });
  addPaymentJobs(command);
  addPurgeJob(command);
  addStatementJobs(command);
  return command;
}

function printPicked(picked: readonly PickedFile[], unitsDone: number): void {
  for (const p of picked) {
    if (p.outcome === 'waiting') {
      process.stdout.write(`${p.company}  ${p.name}: waiting in ${p.movedTo} for ${p.waitingFor ?? 'the next run'}\n`);
      continue;
    }
    if (p.outcome === 'refused') {
      process.stdout.write(
        `${p.company}  ${p.name}: refused, left in ${p.movedTo} unread: ${p.refused?.code ?? ''}: ${p.refused?.message ?? ''}\n`,
      );
      continue;
    }
    const report = p.report ? ` — report: ${p.report}` : '';
    const held = p.held ? ` (${p.held} held for a person: settle payments held)` : '';
    process.stdout.write(
      `${p.company}  ${p.name}: ${p.outcome}, ${p.payments} payment(s)${held} → ${p.movedTo}${report}\n`,
    );
    for (const h of p.heldLines ?? [])
      process.stdout.write(`    line ${h.lineNumber} ${h.endToEndId}: held by ${h.rules.join(', ')}\n`);
  }
  if (picked.length === 0 && unitsDone > 0) process.stdout.write('no files to pick up\n');
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function dateOption(flag: '--from' | '--to', value: string | undefined): { from?: LocalDate } | { to?: LocalDate } {
  if (value === undefined) return {};
  if (!isLocalDate(value))
    throw new SettleError('ERR_USAGE_DATE', `${flag} takes a date as YYYY-MM-DD, not "${value}"`);
  return flag === '--from' ? { from: value } : { to: value };
}
