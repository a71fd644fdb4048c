// Alerts after a run, the same whether the run came from `settle serve`'s scheduler or from
// `settle run nightly` under a systemd timer: a run summary, and everything that needs a
// person — what the run itself noticed plus what the database says is waiting (unknown bulks,
// approvals, links or consents near expiry, statement gaps) — sent once for each thing.
import { recorded } from '../domain/recorded-text.js';
import { translate } from '../i18n/index.js';
import type { Config } from '../config/index.js';
import {
  AlertService,
  EmailNotifier,
  WebhookNotifier,
  type AlertSubject,
  type Notifier,
  type RunSummary,
} from '../alerts/index.js';
// The two server modules alerts need, not the server's index: that would load the HTTP server
// (fastify) and the metrics registry (prom-client) into every `settle run …` (start-up, docs/performance.md).
import { StoreAlertLedger } from '../server/alert-ledger.js';
import { scanForAttention } from '../server/attention-scan.js';
import type { Metrics } from '../server/metrics.js';
import { DedupeRepository } from '../store/index.js';
import type { App } from './app.js';
import type { NightlyResult } from '../../jobs/nightly/index.js';
import type { WrittenStatusReport } from '../../jobs/status/index.js';
import { refusedLinesBody } from '../formats/report/index.js';
import { JobOutcomes } from '../domain/job-outcome.js';

export function configuredNotifiers(config: Pick<Config, 'alerts'>): Notifier[] {
  const out: Notifier[] = [];
  const { email, webhook } = config.alerts;
  if (email)
    out.push(
      new EmailNotifier({
        host: email.host,
        port: email.port,
        secure: email.secure,
        username: email.username,
        password: email.password,
        from: email.from,
        to: email.to,
      }),
    );
  if (webhook) out.push(new WebhookNotifier({ url: webhook.url, authorization: webhook.authorization }));
  return out;
}

export function createAlerts(
  app: App,
  options: { metrics?: Metrics; notifiers?: readonly Notifier[] } = {},
): AlertService {
  const { metrics } = options;
  return new AlertService({
    notifiers: [...configuredNotifiers(app.config), ...(options.notifiers ?? [])],
    ledger: new StoreAlertLedger(new DedupeRepository(app.db, app.clock)),
    logger: app.logger,
    // Read at each message, so a reloaded configuration's locale applies (docs/i18n.md).
    localeOf: (company) => app.config.companies.find((c) => c.id === company)?.locale ?? app.config.locale,
    timeZoneOf: (company) => app.config.companies.find((c) => c.id === company)?.timeZone ?? app.config.timeZone,
    ...(metrics
      ? {
          onAttempt: (channel: string, type: string, ok: boolean) =>
            metrics.alerts.inc({ channel, type, outcome: ok ? 'sent' : 'failed' }),
        }
      : {}),
  });
}

/** Sends the run summary and every alert subject not sent before (the database is scanned too). */
export async function alertAfterRun(app: App, alerts: AlertService, summary: RunSummary): Promise<void> {
  const found = await scanForAttention({
    attention: app.store.attention,
    clock: app.clock,
    warnBeforeMs: app.config.alerts.warnBefore,
    linkWarnBeforeMs: app.config.alerts.linkWarnBefore,
    timeZoneOf: (company) => app.config.companies.find((c) => c.id === company)?.timeZone ?? app.config.timeZone,
  }).catch((error: unknown) => {
    app.logger.warn('cannot scan for findings', { error: error instanceof Error ? error.message : String(error) });
    return [];
  });
  const known = new Set(summary.findings.map((f) => f.key));
  await alerts.runFinished({ ...summary, findings: [...summary.findings, ...found.filter((f) => !known.has(f.key))] });
}

/** The nightly chain's result as a run summary: counts per step and file outcome, and an alert subject per file a person must see. */
export function nightlySummary(result: NightlyResult, startedAt: Date, finishedAt: Date): RunSummary {
  const counts: Record<string, number> = {};
  const add = (key: string) => (counts[key] = (counts[key] ?? 0) + 1);
  for (const step of result.steps) add(`steps ${step.ok ? 'ok' : 'failed'}`);
  const findings: AlertSubject[] = [];
  for (const p of result.picked) {
    add(`files ${p.outcome}`);
    if (p.outcome === 'refused' && p.refused) {
      findings.push({
        kind: 'file-rejected',
        key: `file-refused:${p.company}:${p.name}:${p.refused.code}`,
        title: `${p.company}: payment file ${p.name} refused, left in the inbox unread`,
        text: `${p.refused.message}\n(${p.refused.code}; docs/errors.md says what to do.)`,
        company: p.company,
        words: {
          title: recorded('alerts.fileRefused.title', { company: p.company, file: p.name }),
          text: recorded('alerts.fileRefused.text', { message: p.refused.message, code: p.refused.code }),
        },
        data: { file: p.name, outcome: p.outcome, movedTo: p.movedTo, code: p.refused.code },
      });
      continue;
    }
    if (p.outcome !== 'rejected' && p.outcome !== 'partially-accepted' && p.outcome !== 'duplicate') continue;
    findings.push({
      kind: 'file-rejected',
      key: `file-rejected:${p.company}:${p.sha256 ?? p.name}`,
      title: `${p.company}: payment file ${p.name} ${p.outcome}`,
      text: `The payment file ${p.name} of ${p.company} was ${p.outcome}. It is now in ${p.movedTo}${p.report ? `; the reasons are in ${p.report}` : ''}.\nCorrect the file in the ERP and drop the corrected file into the inbox (docs/runbook.md, "A file is rejected").`,
      company: p.company,
      words: {
        // `how` chooses the words for the outcome (a sentence's choices cannot be spelt with "-").
        title: recorded('alerts.fileRejected.title', { company: p.company, file: p.name, ...outcomeOf(p.outcome) }),
        text: recorded('alerts.fileRejected.text', {
          company: p.company,
          file: p.name,
          ...outcomeOf(p.outcome),
          movedTo: String(p.movedTo),
          report: p.report ?? 'none',
        }),
      },
      data: {
        file: p.name,
        outcome: p.outcome,
        movedTo: p.movedTo,
        ...(p.report ? { report: p.report } : {}),
        ...(p.sha256 ? { sha256: p.sha256 } : {}),
      },
    });
  }
  for (const r of result.statusReports) {
    if (r.refused.length === 0) continue;
    add('payments not paid');
    findings.push(refusedLinesAlert(r));
  }
  const failed = result.steps.find((s) => !s.ok);
  return {
    job: 'nightly',
    runId: result.runId,
    startedAt,
    finishedAt,
    outcome: failed ? 'failed' : result.exitCode === 0 ? 'ok' : JobOutcomes.needsPerson,
    counts,
    findings,
    ...(failed?.error ? { error: failed.error } : {}),
  };
}

/**
 * The lines of one file the bank refused, for people: each ERP line with the bank's reason and
 * what to do. One alert subject per report (a new change of the file is a new report).
 */
function refusedLinesAlert(r: WrittenStatusReport): AlertSubject {
  const trailer = {
    report: r.humanReport ?? 'none',
    count: r.paths.length,
    paths: r.paths.join(', '),
  };
  return {
    kind: 'payment-rejected',
    key: `payment-rejected:${r.company}:${r.paths[0] ?? r.fileId}`,
    title: `${r.company}: ${r.refused.length} line(s) of ${r.originalFile} were not paid`,
    text: `${refusedLinesBody(r.refused)}${r.humanReport ? `The same list is in ${r.humanReport} (and .html beside it).\n` : ''}The ERP's status file${r.paths.length > 1 ? 's' : ''}: ${r.paths.join(', ')}.`,
    // The list of lines has its own renderer, shared with the report in the reports folder.
    words: {
      title: recorded('alerts.linesNotPaid.title', {
        company: r.company,
        count: r.refused.length,
        file: r.originalFile,
      }),
      text: (locale) =>
        `${refusedLinesBody(r.refused, locale)}${translate(locale, 'alerts.linesNotPaid.trailer', trailer)}`,
    },
    company: r.company,
    data: {
      file: r.originalFile,
      fileId: r.fileId,
      lines: r.refused.map((l) => ({
        line: l.lineNumber,
        endToEndId: l.endToEndId,
        status: l.status,
        reasons: l.messages.map((m) => ({ code: m.code, bankText: m.bankText, action: m.action })),
      })),
    },
  };
}

/** A picked file's outcome as an alert subject's sentence takes it: the code, and the choice it makes. */
function outcomeOf(outcome: string): { outcome: string; how: string } {
  return { outcome, how: outcome.replace(/-/g, '_') };
}
