// What an alert is about (its subject): something that needs a person; its `key` names the
// thing itself (not the run that saw it), so the same rejected file seen by ten runs is
// still one alert. A run summary says what one job run did.
import type { RecordedText } from '../domain/recorded-text.js';
import type { Locale } from '../i18n/index.js';
import type { FinishedOutcome } from '../domain/job-outcome.js';

export type AlertKind =
  | 'file-rejected'
  | 'payment-rejected'
  | 'payment-unknown'
  | 'approval-waiting'
  | 'consent-expiring'
  | 'link-expiring'
  | 'statement-gap'
  | 'job-failed'
  | 'deadline-missed';

export interface AlertSubject {
  kind: AlertKind;
  /** Stable identity of the subject, e.g. `file-rejected:<fileId>`: one alert per key, ever. */
  key: string;
  /** One line for a mail subject. Must hold no secrets and no full account numbers. */
  title: string;
  /** What happened and what to do (docs/runbook.md has the steps). */
  text: string;
  company?: string;
  /** Machine-readable facts for the webhook payload. */
  data?: Record<string, unknown>;
  /**
   * `title` and `text` as catalogue sentences, for a mail in the company's language; the English
   * above is what English readers, the webhook and the log get (docs/i18n.md).
   */
  words?: { title?: AlertWords; text?: AlertWords };
}

/**
 * An alert subject's sentence for a reader of another language, chosen when the alert is sent: recorded
 * text (a key and its values), or, for a text that has a renderer of its own (the list of lines
 * not paid), that renderer. A subject is never stored (the ledger keeps its key), so either is safe.
 */
export type AlertWords = RecordedText | ((locale: Locale) => string);

/** The key of an alert subject: kind and the id of the thing it is about. */
export function alertKey(kind: AlertKind, id: string): string {
  return `${kind}:${id}`;
}

export type RunOutcome = FinishedOutcome;

export interface RunSummary {
  job: string;
  runId: string;
  startedAt: Date;
  finishedAt: Date;
  outcome: RunOutcome;
  /** Counts per outcome, e.g. { accepted: 3, rejected: 1 }. */
  counts: Record<string, number>;
  findings: AlertSubject[];
  /** The stable code and sentence of the failure when outcome is failed. */
  error?: { code: string; message: string };
}

/** One message as the channels send it: a subject, a text body and a JSON payload. */
export interface AlertMessage {
  /** `finding` for an alert subject: a machine name (the metric label type="finding", log and webhook readers), so it stays. */
  type: 'finding' | 'run-summary';
  subject: string;
  text: string;
  payload: Record<string, unknown>;
}

/** A channel that delivers alert messages (e-mail, webhook). Throws a SettleError on failure. */
export interface Notifier {
  /** Short stable name used in logs, metrics and the alerts-sent record: `email`, `webhook`. */
  readonly channel: string;
  send(message: AlertMessage): Promise<void>;
  close(): Promise<void>;
}

/**
 * Remembers which alert subjects were delivered on which channel. The store-backed implementation
 * lives with the composition root (src/server/alert-ledger.ts); tests use the in-memory one.
 */
export interface AlertLedger {
  wasSent(key: string, channel: string): Promise<boolean>;
  /** Records a delivery; false when it was already recorded (another instance was quicker). */
  recordSent(key: string, channel: string, detail?: string): Promise<boolean>;
}

export class MemoryAlertLedger implements AlertLedger {
  private readonly sent = new Map<string, string | undefined>();
  wasSent(key: string, channel: string): Promise<boolean> {
    return Promise.resolve(this.sent.has(`${key}#${channel}`));
  }
  recordSent(key: string, channel: string, detail?: string): Promise<boolean> {
    const k = `${key}#${channel}`;
    if (this.sent.has(k)) return Promise.resolve(false);
    this.sent.set(k, detail);
    return Promise.resolve(true);
  }
}
