// Renders what a run did, for the log line at the end of every run and for the summary mail.
import type { AlertMessage, Finding, RunSummary } from './types.js';

export function renderRunSummary(summary: RunSummary): string {
  const seconds = ((summary.finishedAt.getTime() - summary.startedAt.getTime()) / 1000).toFixed(1);
  const lines = [
    `settle ${summary.job} run ${summary.runId}: ${summary.outcome.toUpperCase()}`,
    `started ${summary.startedAt.toISOString()}, took ${seconds} s`,
  ];
  const counts = Object.entries(summary.counts).filter(([, n]) => n > 0);
  lines.push(counts.length ? counts.map(([k, n]) => `${k}: ${n}`).join(', ') : 'nothing to do');
  if (summary.error) lines.push(`failed: ${summary.error.code}: ${summary.error.message}`);
  if (summary.findings.length) {
    lines.push('', `Needs a person (${summary.findings.length}):`);
    for (const f of summary.findings) lines.push(`- ${f.title}`);
  }
  return lines.join('\n') + '\n';
}

export function runSummaryMessage(summary: RunSummary): AlertMessage {
  return {
    type: 'run-summary',
    subject: `[settle] ${summary.job} ${summary.outcome}${summary.findings.length ? `: ${summary.findings.length} need(s) a person` : ''}`,
    text: renderRunSummary(summary),
    payload: {
      job: summary.job,
      runId: summary.runId,
      outcome: summary.outcome,
      startedAt: summary.startedAt.toISOString(),
      finishedAt: summary.finishedAt.toISOString(),
      counts: summary.counts,
      findings: summary.findings.map((f) => f.key),
      ...(summary.error ? { error: summary.error } : {}),
    },
  };
}

export function findingMessage(finding: Finding): AlertMessage {
  return {
    type: 'finding',
    subject: `[settle] ${finding.title}`,
    text: `${finding.text}\n\nKind: ${finding.kind}\nKey: ${finding.key}\n${finding.company ? `Company: ${finding.company}\n` : ''}See docs/runbook.md for what to do.\n`,
    payload: {
      kind: finding.kind,
      key: finding.key,
      title: finding.title,
      text: finding.text,
      ...(finding.company ? { company: finding.company } : {}),
      data: finding.data ?? {},
    },
  };
}
