// `settle health`: whether each company is onboarded, each job's last success per company and
// the dead-man deadlines (alerts.nightlyBy, alerts.statementsBy). A missed deadline is raised
// like `settle serve` raises it (error log line, alert channels once per deadline) and exits 1:
// a systemd timer beside `settle run nightly` thereby alerts when the night's work did not
// happen. A company that is not onboarded (no usable consent or no enabled account) is never
// green: it is named with what is missing and the commands that fix it, and exits 1 too.
import { Command } from 'commander';
import { deadlineView } from '../../domain/deadline.js';
import { ExitCode } from '../../domain/errors.js';
import { createAlerts } from '../../main/alerts.js';
import { createApp } from '../../main/app.js';
import { DeadlineWatch } from '../../main/deadlines.js';
import { textTable } from '../../formats/report/index.js';
import { context } from '../context.js';
import { companiesOnboarding } from '../../main/onboarding.js';

export function healthCommand(): Command {
  return new Command('health')
    .description(
      "whether each company is onboarded, each job's last success per company and the configured deadlines; exits 1 when a company is not onboarded or a deadline was missed (and alerts it)",
    )
    .option('--json', 'print JSON for scripts')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const app = await createApp(config, logger);
      const alerts = createAlerts(app);
      try {
        const successes = await app.store.jobSuccesses.list();
        const deadlines = await new DeadlineWatch(app, alerts).check();
        const onboarding = await companiesOnboarding(app);
        const notOnboarded = onboarding.filter((o) => !o.onboarded);
        if (deadlines.some((d) => d.missed) || notOnboarded.length > 0) process.exitCode = ExitCode.findings;
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
              },
              null,
              2,
            )}\n`,
          );
          return;
        }
        const lines = textTable(
          ['COMPANY', 'ONBOARDED', 'MISSING'],
          onboarding.map((o) => [o.company, o.onboarded ? 'yes' : 'NO', o.missing.join(', ') || '-']),
        );
        for (const o of notOnboarded)
          lines.push(`${o.company}: ${o.why}; to fix it:`, ...o.fix.map((command) => `  ${command}`));
        lines.push(
          ...(successes.length
            ? textTable(
                ['JOB', 'COMPANY', 'LAST SUCCESS'],
                successes.map((s) => [s.job, s.company, s.succeededAt.toISOString()]),
              )
            : ['no job has completed yet']),
        );
        for (const d of deadlines)
          lines.push(
            `${d.missed ? 'MISSED' : 'ok'}  ${d.job} ${d.company} by ${d.by} ${d.timeZone} (due ${d.dueAt.toISOString()}): ${d.lastSuccess ? `last completed ${d.lastSuccess.toISOString()}` : 'never completed'}`,
          );
        if (deadlines.length === 0) lines.push('no deadlines configured (alerts.nightlyBy, alerts.statementsBy)');
        process.stdout.write(lines.map((l) => `${l}\n`).join(''));
      } finally {
        await alerts.close();
        await app.close();
      }
    });
}
