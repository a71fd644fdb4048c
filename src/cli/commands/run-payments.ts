// `settle run submit|approve|status`: the payment jobs, one at a time, now. submit and status
// end with the status reports for the ERP (pain.002 / CSV) of whatever changed. Exit 1 when the
// run left something a person must look at (jobs/nightly/outcome.ts `needsPerson`, the rule the
// nightly uses too: a refused bulk, an unknown outcome, a new link the approvers must sign, a failed basket
// step), 0 otherwise.
import type { Command } from 'commander';
import { runApprove } from '../../../jobs/approve/index.js';
import { runStatus, runStatusReport, type WrittenStatusReport } from '../../../jobs/status/index.js';
import { runSubmit } from '../../../jobs/submit/index.js';
import type { CompanyConfig } from '../../config/index.js';
import { ExitCode } from '../../domain/errors.js';
import { createApp, newRunId, type App } from '../../main/app.js';
import { paymentJobs, type PaymentJobs } from '../../main/payment-jobs.js';
import {
  approveOutcome,
  describeWaiting,
  needsPerson,
  statusOutcome,
  statusReportOutcome,
  submitOutcome,
} from '../../../jobs/nightly/index.js';
import { unitClaims } from '../../main/work-units.js';
import { cliLocale } from '../cli-locale.js';
import { context, selectCompanies } from '../context.js';
import { approveJson, statusJson, submitJson } from '../run-json.js';
import { finishUnits } from '../claimed-units.js';
import { recordedRun } from '../recorded-run.js';

interface JobOptions {
  company?: string[];
  json?: boolean;
}

type Job = (
  app: App,
  jobs: PaymentJobs,
  companies: readonly CompanyConfig[],
  runId: string,
) => Promise<{ lines: string[]; json: unknown; needsPerson: boolean }>;

export function addPaymentJobs(run: Command): void {
  job(
    run,
    'submit',
    'send accepted payments to the bank as bulk credit transfers (exactly once), then write status reports',
    async (app, jobs, companies, runId) => {
      const summary = await runSubmit(jobs.deps('submit', runId), companies);
      const reports = await runStatusReport(jobs.deps('status-report', runId), companies);
      const lines = summary.bulks.map((b) => {
        const id = b.bankPaymentId ? ` bank ${b.bankPaymentId}` : '';
        return `${b.company}  bulk ${b.bulkId} (${b.lines} payment(s)): ${b.outcome}${id}${b.explanation ? ` — ${b.explanation}` : ''}`;
      });
      if (summary.bulks.length === 0) lines.push('no bulks to send');
      const outcome = submitOutcome(summary);
      // Bulks of every company run: the one company's language when one was run, else the top-level one.
      const locale = cliLocale(app.config, companies.length === 1 ? companies[0]!.id : undefined);
      if (outcome.waitingBulks > 0) lines.push(describeWaiting(outcome, locale));
      return {
        lines: [...lines, ...reportLines(reports)],
        json: submitJson(summary, reports),
        needsPerson: needsPerson(outcome),
      };
    },
  );
  job(
    run,
    'approve',
    'put payments on approval accounts into signing baskets and send the approval link to the approvers',
    async (_app, jobs, companies, runId) => {
      const summary = await runApprove(jobs.deps('approve', runId), companies);
      const lines = summary.baskets.map((b) => {
        const what = b.linkIssued
          ? `new approval link → ${b.report ?? 'approvers'}`
          : b.state === 'link_issued'
            ? `waiting for approval (${b.report ?? 'link sent earlier'})`
            : b.state;
        return `${b.company}  basket ${b.basketId} (${b.bulks} bulk(s)): ${what}${b.problem ? ` — ${b.problem}` : ''}`;
      });
      if (summary.baskets.length === 0) lines.push('nothing waits for approval');
      return { lines, json: approveJson(summary), needsPerson: needsPerson(approveOutcome(summary)) };
    },
  );
  job(
    run,
    'status',
    'read the bank status of sent payments that are not final, then write status reports',
    async (_app, jobs, companies, runId) => {
      const summary = await runStatus(jobs.deps('status', runId), companies);
      const reports = await runStatusReport(jobs.deps('status-report', runId), companies);
      const lines = [
        `polled ${summary.polled} bulk(s), ${summary.changed} status change(s), ${summary.notDue} not due yet, ${summary.failed} failed`,
        ...reportLines(reports),
      ];
      return {
        lines,
        json: statusJson(summary, reports),
        needsPerson: needsPerson(statusOutcome(summary)) || needsPerson(statusReportOutcome(reports)),
      };
    },
  );
}

function job(run: Command, name: string, description: string, body: Job): void {
  run
    .command(name)
    .description(description)
    .option('--company <id...>', 'only these companies')
    .option('--json', 'print the run summary as JSON')
    .action(async (options: JobOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      const jobs = paymentJobs(app);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, name, runId, async () => {
          // The job's units (job, company), and the status reports' where the job writes them too.
          const jobNames = name === 'approve' ? [name] : [name, 'status-report'];
          const wanted = companies.flatMap((c) => jobNames.map((job) => ({ job, company: c.id })));
          const result = await units.runAll(wanted, (claimed) => {
            // A company runs when this run claimed every one of its units (counted once, not per company).
            const perCompany = new Map<string, number>();
            for (const u of claimed) perCompany.set(u.company, (perCompany.get(u.company) ?? 0) + 1);
            const whole = companies.filter((c) => perCompany.get(c.id) === jobNames.length);
            return whole.length === 0 ? Promise.resolve(undefined) : body(app, jobs, whole, runId);
          });
          if (result)
            process.stdout.write(
              options.json ? `${JSON.stringify(result.json, null, 2)}\n` : result.lines.map((l) => `${l}\n`).join(''),
            );
          finishUnits(units);
          return { exitCode: result?.needsPerson ? ExitCode.needsPerson : ExitCode.ok };
        });
      } finally {
        units.close();
        await jobs.close();
        await app.close();
      }
    });
}

function reportLines(reports: readonly WrittenStatusReport[]): string[] {
  return reports.map(
    (r) =>
      `${r.company}  ${r.originalFile}: status report → ${r.paths.join(', ')}${r.humanReport ? `; ${r.refused.length} line(s) not paid, what to do → ${r.humanReport}` : ''}`,
  );
}
