// `settle run <job>`: runs one job of the nightly chain now. Exit 1 when the run produced
// something a person must look at (a rejected or duplicate file, …), 0 otherwise.
import { Command } from 'commander';
import { runPickup } from '../../../jobs/pickup.js';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { createApp, newRunId } from '../../main/app.js';
import { context } from '../context.js';

interface RunOptions {
  company?: string[];
}

export function runCommand(): Command {
  const command = new Command('run').description('run one job of the nightly chain now');
  command
    .command('pickup')
    .description('take stable payment files from each company inbox, validate, store, archive or reject them')
    .option('--company <id...>', 'only these companies')
    .action(async (options: RunOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      try {
        const runId = newRunId();
        const picked = await runPickup(app.pickupDeps(runId), companies);
        for (const p of picked) {
          const report = p.report ? ` — report: ${p.report}` : '';
          process.stdout.write(`${p.company}  ${p.name}: ${p.outcome}, ${p.payments} payment(s) → ${p.movedTo}${report}\n`);
        }
        if (picked.length === 0) process.stdout.write('no files to pick up\n');
        if (picked.some((p) => p.outcome === 'rejected' || p.outcome === 'duplicate' || p.outcome === 'partially-accepted')) process.exitCode = ExitCode.findings;
      } finally {
        await app.close();
      }
    });
  return command;
}

function selectCompanies<T extends { id: string }>(all: readonly T[], wanted: string[] | undefined): readonly T[] {
  if (!wanted) return all;
  const unknown = wanted.filter((id) => !all.some((c) => c.id === id));
  if (unknown.length) throw new SettleError('ERR_COMPANY_UNKNOWN', `no company with id ${unknown.join(', ')} in the configuration`, { exitCode: ExitCode.usage });
  return all.filter((c) => wanted.includes(c.id));
}
