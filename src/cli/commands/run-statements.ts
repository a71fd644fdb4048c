// `settle run fetch` and `settle run export`: the statement jobs (docs/statements.md). The lead
// registers them with `addStatementJobs(command)` in run.ts. Exit 1 when a person must look at
// something (a continuity break, a withheld day, an account the bank does not serve), 3 when
// an account could not be fetched, 0 otherwise.
import type { Command } from 'commander';
import { exportOutcome, fetchOutcome, needsPerson } from '../../../jobs/nightly/index.js';
import {
  runExportStatements,
  type ExplicitExport,
  type ExportResult,
  fetchedPerBank,
  runFetchStatements,
  type AccountFetch,
} from '../../../jobs/statements/index.js';
import { ExitCode, SettleError } from '../../domain/errors.js';
import { parseDate, type LocalDate } from '../../domain/local-date.js';
import { createApp, newRunId } from '../../main/app.js';
import { createBankClient } from '../../main/bank.js';
import { exportStatementsDeps, fetchStatementsDeps } from '../../main/statement-jobs.js';
import { unitClaims } from '../../main/work-units.js';
import { context, selectCompanies } from '../context.js';
import { exportJson, fetchJson } from '../run-json.js';
import { finishUnits } from '../claimed-units.js';
import { recordedRun } from '../recorded-run.js';

interface FetchOptions {
  company?: string[];
  json?: boolean;
}

interface ExportOptions extends FetchOptions {
  account?: string;
  from?: string;
  to?: string;
}

export function addStatementJobs(run: Command): void {
  run
    .command('fetch')
    .description(
      'fetch balances and transactions of every enabled account since its watermark, store them and check each complete day',
    )
    .option('--company <id...>', 'only these companies')
    .option('--json', 'print JSON for scripts')
    .action(async (options: FetchOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      const bank = createBankClient(config, logger, { clock: app.clock });
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'fetch', runId, async () => {
          const results = await runFetchStatements({ ...fetchStatementsDeps(app, runId, bank), units }, companies);
          if (options.json) process.stdout.write(JSON.stringify(fetchJson(results), null, 2) + '\n');
          else printFetch(results);
          finishUnits(units);
          if (results.some((r) => r.outcome === 'failed')) return { exitCode: ExitCode.runtime };
          return { exitCode: needsPerson(fetchOutcome(results)) ? ExitCode.needsPerson : ExitCode.ok };
        });
      } finally {
        units.close();
        await bank.close();
        await app.close();
      }
    });

  run
    .command('export')
    .description(
      'write statement files (camt.053 / CSV) for complete, consistent days not exported yet; with --account, --from and --to export those days again',
    )
    .option('--company <id...>', 'only these companies')
    .option('--account <id>', 'explicit (re-)export of this account (bank account id or IBAN)')
    .option('--from <date>', 'first booking day of the explicit export (YYYY-MM-DD)')
    .option('--to <date>', 'last booking day of the explicit export (YYYY-MM-DD)')
    .option('--json', 'print JSON for scripts')
    .action(async (options: ExportOptions, cmd: Command) => {
      const explicit = explicitExport(options);
      const { config, logger } = context(cmd);
      const companies = selectCompanies(config.companies, options.company);
      const app = await createApp(config, logger);
      const runId = newRunId();
      const units = unitClaims(app, runId);
      try {
        await recordedRun(app, 'export', runId, async () => {
          const result = await runExportStatements({ ...exportStatementsDeps(app, runId), units }, companies, explicit);
          if (options.json) process.stdout.write(JSON.stringify(exportJson(result), null, 2) + '\n');
          else printExport(result);
          finishUnits(units);
          return { exitCode: needsPerson(exportOutcome(result)) ? ExitCode.needsPerson : ExitCode.ok };
        });
      } finally {
        units.close();
        await app.close();
      }
    });
}

function explicitExport(options: ExportOptions): ExplicitExport | undefined {
  const given = [options.account, options.from, options.to].filter((v) => v !== undefined).length;
  if (given === 0) return undefined;
  if (given !== 3 || options.account === undefined) {
    throw new SettleError('ERR_STATEMENT_EXPORT_RANGE', 'an explicit export needs all of --account, --from and --to');
  }
  return { account: options.account, from: day(options.from, '--from'), to: day(options.to, '--to') };
}

function day(text: string | undefined, option: string): LocalDate {
  const parsed = text === undefined ? undefined : parseDate(text);
  if (parsed === undefined)
    throw new SettleError('ERR_USAGE_DATE', `${option} "${text ?? ''}" is not a date (YYYY-MM-DD)`);
  return parsed;
}

function printFetch(results: readonly AccountFetch[]): void {
  for (const r of results) {
    const who = `${r.company}  ${r.iban ?? r.accountId}`;
    if (r.outcome === 'not-enabled')
      process.stdout.write(`${who}: NOT ENABLED at the bank (status ${r.status ?? '?'}), not fetched\n`);
    else if (r.outcome === 'not-yet-enabled')
      process.stdout.write(`${who}: not enabled at the bank yet (status ${r.status ?? '?'}), not fetched\n`);
    else if (r.outcome === 'failed')
      process.stdout.write(`${who}: FAILED ${r.error?.code ?? ''}: ${r.error?.message ?? ''}\n`);
    else {
      process.stdout.write(
        `${who}: from ${r.from ?? '?'}: ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.pendingResolved} pending resolved, ${r.days.length} day(s) checked\n`,
      );
      for (const d of r.days.filter((x) => x.continuity === 'gap' || x.continuity === 'mismatch'))
        process.stdout.write(`  ${d.day}: CONTINUITY ${d.continuity.toUpperCase()}: ${d.finding ?? ''}\n`);
    }
  }
  if (results.length === 0) process.stdout.write('no accounts\n');
  else process.stdout.write(`${fetchedPerBank(results)} of ${results.length} account(s)\n`);
}

function printExport(result: ExportResult): void {
  for (const f of result.files)
    process.stdout.write(
      `${f.company}  ${f.path}: ${f.entries} entr${f.entries === 1 ? 'y' : 'ies'}, sequence ${f.sequenceNumber}${f.version > 1 ? `, version ${f.version}` : ''}\n`,
    );
  for (const h of result.withheld)
    process.stdout.write(`${h.company}  ${h.accountId} ${h.day} (${h.format}): WITHHELD — ${h.reason}\n`);
  for (const c of result.changed)
    process.stdout.write(`${c.company}  ${c.fileName} (${c.format}): CHANGED AT THE BANK — ${c.reason}\n`);
  if (result.files.length === 0 && result.withheld.length === 0 && result.changed.length === 0)
    process.stdout.write('nothing to export\n');
}
