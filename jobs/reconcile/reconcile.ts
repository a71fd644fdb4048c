// The reconcile job: per company, matches the payments settle sent against the booked debits
// on its accounts, collects every finding (src/domain/reconcile), and writes a CSV (one row per
// finding) and a self-contained HTML page into the company's reports folder. A run whose
// findings need a person makes `settle run reconcile` exit 1.
import { posix } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import type { Clock } from '../../src/domain/clock.js';
import { addDays, dateInZone, today, type LocalDate } from '../../src/domain/local-date.js';
import { startOfDay } from '../../src/domain/zoned-time.js';
import {
  accountBalances,
  agedItems,
  applyDecisions,
  factHash,
  findingDay,
  findingId,
  findingSubject,
  reconcile,
  rejectedProposals,
  resolveReconcileConfig,
  summarise,
  type OpenReceivable,
  type Tolerances,
  type BookedTransaction,
  type Finding,
  type FindingDecision,
  type ConsentState,
  type ReconcileConfig,
  type ReconcileSummary,
} from '../../src/domain/reconcile/index.js';
import type { ReceivablesProfile } from '../../src/formats/receivables/index.js';
import { renderFindingsCsv, renderFindingsHtml } from '../../src/formats/report/index.js';
import { FALLBACK_LOCALE, type Locale } from '../../src/i18n/index.js';
import type { Logger } from '../../src/log/index.js';
import type { Store, StoredReceivable } from '../../src/store/index.js';
import type { FileStore } from '../../src/transport/index.js';
import { removeStaleParts } from '../inbox/index.js';
import { bookedTransactions, pendingApprovals, sentPayments, statementPeriods, widened } from './inputs.js';
import { takeReceivables, type ReceivablesFileResult } from './receivables.js';

export interface ReconcileDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  /** The top-level `locale`: the language of a company's report when it names none (default English). */
  locale?: Locale;
  runId: string;
  config: ReconcileConfig;
  /** How far back the default period starts, in days. */
  lookBackDays: number;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** The company's consents with their expiry; a failure to read them is reported, not fatal. */
  consents?(company: CompanyConfig): Promise<ConsentState[]>;
  /** Loads a receivables profile by name; without it, receivables folders are not read. */
  receivablesProfile?(name: string): Promise<ReceivablesProfile>;
  /** Wait between the two looks of the stable-file check (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
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
  /** Receivables files taken from the company's receivables folder in this run. */
  receivablesFiles: ReceivablesFileResult[];
}

export async function runReconcile(
  deps: ReconcileDeps,
  companies: readonly CompanyConfig[],
  period: { from?: LocalDate; to?: LocalDate } = {},
): Promise<CompanyReconciliation[]> {
  const results: CompanyReconciliation[] = [];
  for (const company of companies) results.push(await reconcileCompany(deps, company, period));
  return results;
}

/**
 * The period of a company's report: to today in the company's time zone (or as asked), from
 * the look-back before it (or as asked), never before the company's go-live date.
 */
export function reportPeriod(
  deps: Pick<ReconcileDeps, 'clock' | 'timeZone' | 'lookBackDays'>,
  company: CompanyConfig,
  asked: { from?: LocalDate; to?: LocalDate } = {},
): { from: LocalDate; to: LocalDate; timeZone: string; since?: LocalDate } {
  const timeZone = company.timeZone ?? deps.timeZone;
  const since = company.reconcile.since as LocalDate | undefined;
  const to = asked.to ?? today(deps.clock, timeZone);
  const from = asked.from ?? addDays(to, -deps.lookBackDays);
  return { from: since !== undefined && since > from ? since : from, to, timeZone, ...(since ? { since } : {}) };
}

async function reconcileCompany(
  deps: ReconcileDeps,
  company: CompanyConfig,
  asked: { from?: LocalDate; to?: LocalDate },
): Promise<CompanyReconciliation> {
  const now = deps.clock.now();
  const { from, to, timeZone, since } = reportPeriod(deps, company, asked);
  const config = resolveReconcileConfig({ ...deps.config, tolerances: tolerancesOf(company) });
  const files = await deps.fileStore(company);
  const receivablesFiles = deps.receivablesProfile
    ? await takeReceivables(
        {
          store: deps.store,
          clock: deps.clock,
          logger: deps.logger,
          timeZone,
          receivablesProfile: (name) => deps.receivablesProfile!(name),
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
        },
        company,
        files,
      )
    : [];
  // Matching looks a date window beyond the period on both sides, so a payment executed on the
  // last day still finds its booking of the next; only what lies inside the period is reported.
  const around = widened({ from, to }, config.dateWindowDays);
  const { receivables, since: replayFrom } = await receivablesInPlay(
    deps.store,
    company.id,
    timeZone,
    around.from,
    config.tolerances,
  );
  const input = {
    payments: await sentPayments(deps.store, company.id, around),
    transactions: [
      ...(await earlierCredits(deps.store, company.id, replayFrom, around.from)),
      ...(await bookedTransactions(deps.store, company.id, around)),
    ].filter((t) => !creditBeforeGoLive(t, since)),
    statements: await statementPeriods(deps.store, company.id, { from, to }),
    approvals: await pendingApprovals(deps.store, company.id),
    consents: await consentsOf(deps, company),
    receivables,
    receivablesInUse: company.folders.receivables !== undefined,
  };
  const context = {
    today: today(deps.clock, timeZone),
    now,
    calendar: businessCalendar(company.intake.calendar),
    scope: { from, to },
  };
  let result = reconcile(input, context, config);
  // The decisions standing on this run's findings, read by their ids.
  const decisions = await decisionsOf(deps.store, company.id, result.findings);
  // Proposals a person rejected: run again with those pairs left unmatched.
  const rejected = rejectedProposals(company.id, result.findings, decisions);
  if (rejected.size > 0) {
    result = reconcile({ ...input, rejectedProposals: rejected }, context, config);
    for (const [id, decision] of await decisionsOf(deps.store, company.id, result.findings))
      decisions.set(id, decision);
  }
  const findings = applyDecisions(company.id, result.findings, decisions);
  const summary = summarise(findings);
  await deps.store.findings.recordRun(
    company.id,
    deps.runId,
    findings.flatMap((f) =>
      f.id
        ? [
            {
              id: f.id,
              type: f.type,
              factHash: factHash(f),
              subject: findingSubject(f),
              summary: f.message,
              ...(f.said ? { summaryText: f.said } : {}),
              // What the Reconciliation page filters by, and the day that places it in a period.
              ...(f.accountIban ? { accountIban: f.accountIban } : {}),
              ...(f.amount ? { amount: f.amount } : {}),
              factDate: findingDay(f, context.today),
            },
          ]
        : [],
    ),
  );
  const dir = company.folders.reports;
  await files.ensureDir(dir);
  await removeStaleParts(files, dir, deps.clock, deps.logger);
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  const base = posix.join(dir, `reconciliation-${company.id}-${to}-${stamp}`);
  const inScope = (date: LocalDate) => date >= from && date <= to;
  const meta = {
    company: `${company.name} (${company.organisationNumber})`,
    runId: deps.runId,
    from,
    to,
    generatedAt: now,
    timeZone,
    compared: {
      payments: input.payments.filter((p) => inScope(p.requestedExecutionDate)).length,
      bookings: input.transactions.filter((t) => inScope(t.bookingDate)).length,
      accounts: [
        ...new Set([...input.transactions.map((t) => t.accountIban), ...input.payments.map((p) => p.debtorIban)]),
      ].sort(),
      windowDays: config.dateWindowDays,
      // Closed ones are given to matching for the credits that paid them, but are no longer open.
      ...(input.receivablesInUse ? { receivables: receivables.filter((r) => r.closedOn === undefined).length } : {}),
      ...(since ? { since } : {}),
    },
  };
  const csv = renderFindingsCsv(findings);
  await files.writeAtomic(`${base}.csv`, csv);
  const calendar = businessCalendar(company.intake.calendar);
  const html = renderFindingsHtml(meta, findings, summary, {
    balances: accountBalances({ from, to }, input.payments, input.transactions, input.statements),
    aging: agedItems(findings, today(deps.clock, timeZone), calendar),
    // The page is for people: in the company's language. The CSV is for programs and keeps its columns.
    locale: company.locale ?? deps.locale ?? FALLBACK_LOCALE,
  });
  await files.writeAtomic(`${base}.html`, html);
  // Recorded with their content, so the console links them by id and never reads a path.
  for (const [content, mediaType, ext] of [
    [csv, 'text/csv', 'csv'],
    [html, 'text/html', 'html'],
  ] as const)
    await deps.store.reports.record({
      company: company.id,
      kind: 'reconciliation',
      subject: { type: 'reconcile_run', id: deps.runId },
      name: posix.basename(`${base}.${ext}`),
      mediaType,
      content,
    });
  deps.logger.info('reconciled', {
    company: company.id,
    from,
    to,
    payments: input.payments.length,
    transactions: input.transactions.length,
    findings: summary.findings,
    needingPerson: summary.needingPerson,
    acknowledged: summary.acknowledged,
  });
  return {
    company: company.id,
    from,
    to,
    summary,
    needsPerson: summary.needingPerson > 0,
    csv: `${base}.csv`,
    html: `${base}.html`,
    receivablesFiles,
  };
}

/** A credit booked before go-live paid something settle never knew about: it pays no receivable. */
function creditBeforeGoLive(t: BookedTransaction, since: LocalDate | undefined): boolean {
  return since !== undefined && t.amount.minor > 0n && t.bookingDate < since;
}

/** The company's tolerances in the domain's terms. */
function tolerancesOf(company: CompanyConfig): Tolerances {
  const t = company.reconcile.tolerances;
  return {
    amountAbsolute: t.amount.absolute,
    amountPercent: t.amount.percent,
    percentBase: t.amount.base,
    fee: t.fee,
    dateWindow: t.dateWindow,
    dueDateWindow: t.dueDateWindow,
    autoConfirmScore: t.autoConfirmScore,
  };
}

/**
 * The receivables a credit this run reads may still pay, and the day the credits' replay starts
 * (`since`). A credit pays no receivable closed before it was booked, so the replay needs the open
 * receivables and those closed on or after its start; and it starts at the matching window or
 * at the earliest due date of those receivables less the due-date window, whichever is earlier.
 * Each answers the other, so the read is repeated, reaching back, until no receivable it brings
 * moves the start (two reads as a rule). The company's receivables closed before the start are
 * not read: no credit of the replay can pay them, so they change no allocation.
 */
async function receivablesInPlay(
  store: Store,
  company: string,
  timeZone: string,
  window: LocalDate,
  tolerances: Tolerances,
): Promise<{ receivables: OpenReceivable[]; since: LocalDate }> {
  let since = window;
  for (;;) {
    const receivables = (await store.receivables.list(company, startOfDay(since, timeZone)))
      .map((r) => openReceivable(company, r, timeZone))
      .filter((r) => r.closedOn === undefined || r.closedOn >= since);
    const earliest = receivables.reduce((min, r) => {
      const reach = addDays(r.dueDate, -tolerances.dueDateWindow.before);
      return reach < min ? reach : min;
    }, since);
    if (earliest >= since) return { receivables, since };
    since = earliest;
  }
}

function openReceivable(company: string, r: StoredReceivable, timeZone: string): OpenReceivable {
  return {
    company,
    invoice: r.invoice,
    customer: r.customer,
    amount: r.amount,
    dueDate: r.dueDate,
    ...(r.reference ? { reference: r.reference } : {}),
    ...(r.closedAt ? { closedOn: dateInZone(r.closedAt, timeZone) } : {}),
  };
}

/**
 * Credits booked from the replay's start up to the matching window: they may have paid part of a
 * receivable still in play, so they count towards it (the rest is right), but are not reported
 * again.
 */
async function earlierCredits(
  store: Store,
  company: string,
  since: LocalDate,
  before: LocalDate,
): Promise<BookedTransaction[]> {
  if (since >= before) return [];
  const rows = await bookedTransactions(store, company, { from: since, to: addDays(before, -1) });
  return rows.filter((t) => t.amount.minor > 0n);
}

/** The decisions standing on these findings of the company, as the domain reads them. */
async function decisionsOf(
  store: Store,
  company: string,
  findings: readonly Finding[],
): Promise<Map<string, FindingDecision>> {
  const out = new Map<string, FindingDecision>();
  const ids = findings.map((f) => findingId(company, f));
  for (const [id, f] of await store.findings.decisions(company, ids)) {
    if (!f.decidedHash || !f.decidedBy || !f.decidedAt || f.decision === 'open') continue;
    out.set(id, {
      decision: f.decision,
      factHash: f.decidedHash,
      by: f.decidedBy,
      at: f.decidedAt,
      ...(f.decidedReason ? { reason: f.decidedReason } : {}),
    });
  }
  return out;
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
