// The `--json` shapes of `settle run *` (docs/cli-json.md): one stable document per job, built
// field by field so an internal change never renames what scripts read. Amounts are decimal
// strings, instants RFC 3339, an unknown value null.
import type { ApproveSummary } from '../../jobs/approve/index.js';
import type { ExportResult, AccountFetch } from '../../jobs/statements/index.js';
import type { NightlyResult, StepResult } from '../../jobs/nightly/index.js';
import type { PickedFile } from '../../jobs/pickup/index.js';
import type { CompanyReconciliation } from '../../jobs/reconcile/index.js';
import type { WrittenStatusReport, StatusSummary } from '../../jobs/status/index.js';
import type { SubmitSummary } from '../../jobs/submit/index.js';
import { formatAmount, formatMinor } from '../domain/money.js';
import { currencyExponent } from '../domain/currency.js';

type Json = Record<string, unknown>;

export function pickupJson(picked: readonly PickedFile[]): Json {
  return {
    files: picked.map((p) => ({
      company: p.company,
      name: p.name,
      outcome: p.outcome,
      payments: p.payments,
      held: p.held ?? 0,
      movedTo: p.movedTo,
      report: p.report ?? null,
      sha256: p.sha256 ?? null,
      waitingFor: p.waitingFor ?? null,
      refused: p.refused ?? null,
    })),
  };
}

export function submitJson(summary: SubmitSummary, reports: readonly WrittenStatusReport[]): Json {
  return {
    planned: summary.planned,
    bulks: summary.bulks.map((b) => ({
      company: b.company,
      bulkId: b.bulkId,
      fileId: b.fileId,
      payments: b.lines,
      outcome: b.outcome,
      bankPaymentId: b.bankPaymentId ?? null,
      explanation: b.explanation ?? null,
    })),
    waiting: { bulks: summary.waiting.bulks, until: summary.waiting.until?.toISOString() ?? null },
    statusReports: statusReportsJson(reports),
  };
}

export function approveJson(summary: ApproveSummary): Json {
  return {
    baskets: summary.baskets.map((b) => ({
      company: b.company,
      basketId: b.basketId,
      bankBasketId: b.bankBasketId ?? null,
      state: b.state,
      bulks: b.bulks,
      linkIssued: b.linkIssued,
      notice: b.report ?? null,
      problem: b.problem ?? null,
    })),
  };
}

export function statusJson(summary: StatusSummary, reports: readonly WrittenStatusReport[]): Json {
  return {
    polled: summary.polled,
    notDue: summary.notDue,
    changed: summary.changed,
    failed: summary.failed,
    statusReports: statusReportsJson(reports),
  };
}

function statusReportsJson(reports: readonly WrittenStatusReport[]): Json[] {
  return reports.map((r) => ({
    company: r.company,
    fileId: r.fileId,
    originalFile: r.originalFile,
    payments: r.lines,
    paths: r.paths,
    refusedLines: r.refused.length,
    humanReport: r.humanReport ?? null,
  }));
}

export function fetchJson(results: readonly AccountFetch[]): Json {
  const decimal = (minor: bigint | undefined, currency: string): string | null =>
    minor === undefined ? null : formatMinor(minor, currencyExponent(currency) ?? 2);
  return {
    accounts: results.map((r) => ({
      company: r.company,
      accountId: r.accountId,
      iban: r.iban ?? null,
      bankId: r.bankId ?? null,
      outcome: r.outcome,
      status: r.status ?? null,
      from: r.from ?? null,
      inserted: r.inserted,
      updated: r.updated,
      unchanged: r.unchanged,
      pendingResolved: r.pendingResolved,
      balances: r.balances,
      days: r.days.map((d) => ({
        day: d.day,
        currency: d.currency,
        opening: decimal(d.openingMinor, d.currency),
        closing: decimal(d.closingMinor, d.currency),
        bookedSum: decimal(d.bookedSumMinor, d.currency),
        entries: d.entryCount,
        continuity: d.continuity,
        finding: d.finding ?? null,
      })),
      error: r.error ?? null,
    })),
  };
}

export function exportJson(result: ExportResult): Json {
  return {
    files: result.files.map((f) => ({
      company: f.company,
      accountId: f.accountId,
      format: f.format,
      period: f.period,
      path: f.path,
      entries: f.entries,
      sequenceNumber: f.sequenceNumber,
      version: f.version,
      explicit: f.explicit,
    })),
    // The withheld days keep their JSON name `held` (docs/cli-json.md): scripts read it.
    held: result.withheld.map((h) => ({
      company: h.company,
      accountId: h.accountId,
      format: h.format,
      day: h.day,
      reason: h.reason,
    })),
    changed: result.changed.map((c) => ({
      company: c.company,
      accountId: c.accountId,
      format: c.format,
      period: c.period,
      fileName: c.fileName,
      reason: c.reason,
    })),
  };
}

export function reconcileJson(results: readonly CompanyReconciliation[]): Json {
  return {
    companies: results.map((r) => ({
      company: r.company,
      from: r.from,
      to: r.to,
      findings: r.summary.findings,
      needingPerson: r.summary.needingPerson,
      acknowledged: r.summary.acknowledged,
      byType: r.summary.byType
        .filter((t) => t.count > 0)
        .map((t) => ({
          type: t.type,
          title: t.title,
          severity: t.severity,
          count: t.count,
          needingPerson: t.needingPerson,
          totals: t.totals.map((m) => ({ currency: m.currency, amount: formatAmount(m) })),
        })),
      csv: r.csv,
      html: r.html,
    })),
  };
}

export function stepJson(s: StepResult): Json {
  return {
    step: s.step,
    company: s.company ?? null,
    ok: s.ok,
    needsPerson: s.needsPerson,
    held: s.claimedElsewhere ?? false,
    summary: s.summary,
    files: s.files,
    error: s.error ?? null,
  };
}

export function nightlyJson(result: NightlyResult): Json {
  return {
    runId: result.runId,
    exitCode: result.exitCode,
    steps: result.steps.map(stepJson),
    files: pickupJson(result.picked).files,
    statusReports: statusReportsJson(result.statusReports),
    reconciliations: reconcileJson(result.reconciliations).companies,
    heldByOthers: result.claimedElsewhere.map((c) => ({
      job: c.unit.job,
      company: c.unit.company,
      until: c.until?.toISOString() ?? null,
    })),
  };
}
