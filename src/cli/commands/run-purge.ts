// `settle run purge`: deletes what retention no longer keeps (docs/operations.md#retention).
import type { Command } from 'commander';
import { ExitCode } from '../../domain/errors.js';
import { createApp, newRunId } from '../../main/app.js';
import { runPurge, type PurgeResult } from '../../main/purge.js';
import { unitClaims } from '../../main/work-units.js';
import { context, selectCompanies } from '../context.js';
import { finishUnits } from '../claimed-units.js';
import { recordedRun } from '../recorded-run.js';

interface PurgeOptions {
  company?: string[];
  json?: boolean;
}

export function addPurgeJob(run: Command): void {
  run
    .command('purge')
    .description(
      'delete what retention no longer keeps: bookkeeping material past retention.bookkeepingYears, operational records past retention.operational (never the audit trail)',
    )
    .option('--company <id...>', 'only these companies (the shared records are purged too)')
    .option('--json', 'print JSON for scripts')
    .action(async (options: PurgeOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'purge', runId, async () => {
          const result = await runPurge(app, units, runId, companies);
          if (options.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
          else printPurge(result);
          finishUnits(units);
          return { exitCode: ExitCode.ok };
        });
      } finally {
        units.close();
        await app.close();
      }
    });
}

function printPurge(result: PurgeResult): void {
  const text = (counts: Record<string, number>) =>
    Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([what, n]) => `${n} ${what}`)
      .join(', ') || 'nothing to purge';
  for (const c of result.companies) process.stdout.write(`${c.company}  kept from ${c.keptFrom}: ${text(c.counts)}\n`);
  if (result.shared) process.stdout.write(`shared records: ${text(result.shared)}\n`);
}
