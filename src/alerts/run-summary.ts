// Renders what a run did, for the log line at the end of every run (English, as every log line)
// and for the summary mail (in the install's language, src/i18n/messages/alerts.ts). An alert
// subject's own title and text are written in English where it is found, with their catalogue sentences
// beside them (`words`): the mail reads those in its reader's language, the webhook's payload
// and the log keep the English (docs/i18n.md).
import { CATALOGUES, FALLBACK_LOCALE, format, recordedSentence, translate, type Locale } from '../i18n/index.js';
import type { AlertMessage, AlertSubject, AlertWords, RunSummary } from './types.js';

/** The run's duration in seconds, one decimal: "1.5" in English, "1,5" in bokmål. */
function seconds(summary: RunSummary, locale: Locale): string {
  const s = (summary.finishedAt.getTime() - summary.startedAt.getTime()) / 1000;
  if (locale === FALLBACK_LOCALE) return s.toFixed(1);
  return new Intl.NumberFormat(CATALOGUES[locale].formatLocale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(s);
}

/** When the run started: ISO in English, as it always was; else in the install's zone, as the language writes it. */
function startedAt(summary: RunSummary, locale: Locale, timeZone: string): string {
  return locale === FALLBACK_LOCALE
    ? summary.startedAt.toISOString()
    : format.dateTime(summary.startedAt, timeZone, locale);
}

/**
 * A count as "files accepted: 3": the count's name in the reader's language where the catalogue
 * knows it (a select's choices are words, so "files partially-accepted" is asked as
 * `files_partially_accepted`), else as the job named it.
 */
function countLine(locale: Locale, label: string, n: number): string {
  return translate(locale, 'alerts.summary.count', { what: label.replace(/[^a-z]+/g, '_'), label, n: String(n) });
}

export function renderRunSummary(summary: RunSummary, locale: Locale = FALLBACK_LOCALE, timeZone = 'UTC'): string {
  const lines = [
    translate(locale, 'alerts.summary.headline', {
      job: summary.job,
      runId: summary.runId,
      outcome: summary.outcome.toUpperCase(),
    }),
    translate(locale, 'alerts.summary.started', {
      at: startedAt(summary, locale, timeZone),
      seconds: seconds(summary, locale),
    }),
  ];
  const counts = Object.entries(summary.counts).filter(([, n]) => n > 0);
  lines.push(
    counts.length
      ? counts.map(([k, n]) => countLine(locale, k, n)).join(', ')
      : translate(locale, 'alerts.summary.nothing'),
  );
  if (summary.error)
    lines.push(
      translate(locale, 'alerts.summary.failed', { code: summary.error.code, message: summary.error.message }),
    );
  if (summary.findings.length) {
    lines.push('', translate(locale, 'alerts.summary.needsPerson', { count: String(summary.findings.length) }));
    for (const f of summary.findings) lines.push(`- ${inLanguage(locale, f.title, f.words?.title)}`);
  }
  return lines.join('\n') + '\n';
}

export function runSummaryMessage(
  summary: RunSummary,
  locale: Locale = FALLBACK_LOCALE,
  timeZone = 'UTC',
): AlertMessage {
  return {
    type: 'run-summary',
    subject: translate(locale, 'alerts.summary.subject', {
      job: summary.job,
      outcome: summary.outcome,
      count: summary.findings.length,
    }),
    text: renderRunSummary(summary, locale, timeZone),
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

export function alertMessage(subject: AlertSubject, locale: Locale = FALLBACK_LOCALE): AlertMessage {
  const say = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) =>
    translate(locale, key, values);
  return {
    type: 'finding',
    subject: say('alerts.finding.subject', { title: inLanguage(locale, subject.title, subject.words?.title) }),
    text: [
      inLanguage(locale, subject.text, subject.words?.text),
      '',
      say('alerts.finding.kind', { kind: subject.kind }),
      say('alerts.finding.key', { key: subject.key }),
      ...(subject.company ? [say('alerts.finding.company', { company: subject.company })] : []),
      say('alerts.finding.runbook'),
      '',
    ].join('\n'),
    payload: {
      kind: subject.kind,
      key: subject.key,
      title: subject.title,
      text: subject.text,
      ...(subject.company ? { company: subject.company } : {}),
      data: subject.data ?? {},
    },
  };
}

/**
 * An alert subject's sentence in `locale` where it has one the catalogue knows; else its English, which
 * English readers always get, byte for byte.
 */
function inLanguage(locale: Locale, english: string, words: AlertWords | undefined): string {
  if (typeof words !== 'function') return recordedSentence(locale, english, words);
  return locale === FALLBACK_LOCALE ? english : words(locale);
}
