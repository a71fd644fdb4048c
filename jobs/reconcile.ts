// The reconcile job: per company, matches the payments settle sent against the booked debits
// on its accounts, collects every finding (src/domain/reconcile), and writes a CSV (one row per
// finding) and a self-contained HTML page into the company's reports folder. A run whose
// findings need a person makes `settle run reconcile` exit 1.
import { posix } from 'node:path';
import type { CompanyConfig } from '../src/config/index.js';
import { businessCalendar } from '../src/domain/business-calendar.js';
import type { Clock } from '../src/domain/clock.js';
import { addDays, today, type LocalDate } from '../src/domain/local-date.js';
import {
  reconcile,
  type ConsentState,
  type ReconcileConfig,
  type ReconcileSummary,
} from '../src/domain/reconcile/index.js';
import { renderFindingsCsv, renderFindingsHtml } from '../src/formats/report/index.js';
import type { Logger } from '../src/log/index.js';
import type { Store } from '../src/store/index.js';
import type { FileStore } from '../src/transport/index.js';
import { removeStaleParts } from './part-leftovers.js';
import { bookedTransactions, pendingApprovals, sentPayments, statementPeriods } from './reconcile-inputs.js';

export interface ReconcileDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  runId: string;
  config: ReconcileConfig;
  /** How far back the default period starts, in days. */
  lookBackDays: number;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** The company's consents with their expiry; a failure to read them is reported, not fatal. */
  consents?(company: CompanyConfig): Promise<ConsentState[]>;
}

export interface CompanyReconciliation {
  company: string;
  from: LocalDate;
  to: LocalDate;
  summary: ReconcileSummary;
  needsPerson: boolean;
  /** Report paths, relative to the company's root. */
  csv: string;
  html: string;
}

export async function runReconcile(
  deps: ReconcileDeps,
  companies: readonly CompanyConfig[],
  period: { from?: LocalDate; to?: LocalDate } = {},
): Promise<CompanyReconciliation[]> {
  const now = deps.clock.now();
  const to = period.to ?? today(deps.clock, deps.timeZone);
  const from = period.from ?? addDays(to, -deps.lookBackDays);
  const results: CompanyReconciliation[] = [];
  for (const company of companies) {
    const input = {
      payments: await sentPayments(deps.store, company.id, { from, to }),
      transactions: await bookedTransactions(deps.store, company.id, { from, to }, deps.config.dateWindowDays),
      statements: await statementPeriods(deps.store, company.id, { from, to }),
      approvals: await pendingApprovals(deps.store, company.id),
      consents: await consentsOf(deps, company),
    };
    const result = reconcile(
      input,
      { today: today(deps.clock, deps.timeZone), now, calendar: businessCalendar(company.intake.calendar) },
      deps.config,
    );
    const files = await deps.fileStore(company);
    const dir = company.folders.reports;
    await files.ensureDir(dir);
    await removeStaleParts(files, dir, deps.clock, deps.logger);
    const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
    const base = posix.join(dir, `reconciliation-${company.id}-${to}-${stamp}`);
    const meta = {
      company: `${company.name} (${company.organisationNumber})`,
      runId: deps.runId,
      from,
      to,
      generatedAt: now,
    };
    await files.writeAtomic(`${base}.csv`, renderFindingsCsv(result.findings));
    await files.writeAtomic(`${base}.html`, renderFindingsHtml(meta, result.findings, result.summary));
    deps.logger.info('reconciled', {
      company: company.id,
      from,
      to,
      payments: input.payments.length,
      transactions: input.transactions.length,
      findings: result.summary.findings,
      needingPerson: result.summary.needingPerson,
    });
    results.push({
      company: company.id,
      from,
      to,
      summary: result.summary,
      needsPerson: result.needsPerson,
      csv: `${base}.csv`,
      html: `${base}.html`,
    });
  }
  return results;
}

async function consentsOf(deps: ReconcileDeps, company: CompanyConfig): Promise<ConsentState[]> {
  if (!deps.consents) return [];
  try {
    return await deps.consents(company);
  } catch (error) {
    deps.logger.warn('consents could not be read from the bank; their expiry is not in this report', {
      company: company.id,
      error,
    });
    return [];
  }
}
