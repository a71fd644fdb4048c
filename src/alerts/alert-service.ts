// Sends what needs a person to every configured channel, once for each thing, and the run
// summary at the end of each run.
//
// Delivery is AT LEAST ONCE per alert subject and channel: the ledger is asked before sending and
// written only after the channel accepted the message. A crash between the two, or two
// instances raising the same subject at the same moment, can send a duplicate; a lost alert
// about a rejected file or an unknown payment costs far more than a second mail. A channel
// that fails is not recorded, so the next run tries it again, without re-sending on the
// channels that worked (the ledger key is per channel).
import type { Locale } from '../i18n/index.js';
import type { Logger } from '../log/index.js';
import { alertMessage, renderRunSummary, runSummaryMessage } from './run-summary.js';
import type { AlertLedger, AlertSubject, Notifier, RunSummary } from './types.js';
import { JobOutcomes } from '../domain/job-outcome.js';

export interface AlertServiceOptions {
  notifiers: readonly Notifier[];
  ledger: AlertLedger;
  logger: Logger;
  /** Jobs whose run summary is sent on the channels (every run is logged). Default: nightly. */
  summaryJobs?: readonly string[];
  /**
   * The language of a message: an alert about one company in that company's, the run summary
   * (company undefined) in the install's. English when absent.
   */
  localeOf?: (company: string | undefined) => Locale;
  /** The time zone the run summary's start is written in for a reader of another language than English (UTC when absent). */
  timeZoneOf?: (company: string | undefined) => string;
  /** Called after each delivery attempt (metrics). */
  onAttempt?: (channel: string, type: 'finding' | 'run-summary', ok: boolean) => void;
}

export interface RaiseResult {
  sent: number;
  alreadySent: number;
  failed: number;
}

export class AlertService {
  private readonly summaryJobs: ReadonlySet<string>;

  constructor(private readonly options: AlertServiceOptions) {
    this.summaryJobs = new Set(options.summaryJobs ?? ['nightly']);
  }

  get channels(): string[] {
    return this.options.notifiers.map((n) => n.channel);
  }

  /** Sends each alert subject on each channel that has not delivered it before. Never throws for a channel failure. */
  async raise(subjects: readonly AlertSubject[]): Promise<RaiseResult> {
    const result: RaiseResult = { sent: 0, alreadySent: 0, failed: 0 };
    const unique = new Map(subjects.map((f) => [f.key, f]));
    for (const subject of unique.values()) {
      const message = alertMessage(subject, this.options.localeOf?.(subject.company));
      await Promise.all(
        this.options.notifiers.map(async (notifier) => {
          const { channel } = notifier;
          if (await this.options.ledger.wasSent(subject.key, channel)) {
            result.alreadySent++;
            return;
          }
          try {
            await notifier.send(message);
          } catch (error) {
            result.failed++;
            this.options.onAttempt?.(channel, 'finding', false);
            this.options.logger.error('alert not delivered; retried on the next run', {
              channel,
              finding: subject.key,
              error: describe(error),
            });
            return;
          }
          this.options.onAttempt?.(channel, 'finding', true);
          await this.options.ledger.recordSent(subject.key, channel, subject.title);
          result.sent++;
          this.options.logger.info('alert sent', { channel, finding: subject.key });
        }),
      );
    }
    return result;
  }

  /** Logs the summary of a finished run, sends it when the job is one whose summaries go out, then raises what it found needs a person. */
  async runFinished(summary: RunSummary): Promise<RaiseResult> {
    const text = renderRunSummary(summary);
    const level =
      summary.outcome === 'failed' ? 'error' : summary.outcome === JobOutcomes.needsPerson ? 'warn' : 'info';
    this.options.logger.log(level, 'run summary', {
      job: summary.job,
      runId: summary.runId,
      outcome: summary.outcome,
      counts: summary.counts,
      findings: summary.findings.length,
      summary: text,
    });
    if (this.summaryJobs.has(summary.job)) {
      const message = runSummaryMessage(
        summary,
        this.options.localeOf?.(undefined),
        this.options.timeZoneOf?.(undefined),
      );
      await Promise.all(
        this.options.notifiers.map(async (notifier) => {
          try {
            await notifier.send(message);
            this.options.onAttempt?.(notifier.channel, 'run-summary', true);
          } catch (error) {
            this.options.onAttempt?.(notifier.channel, 'run-summary', false);
            this.options.logger.error('run summary not delivered', {
              channel: notifier.channel,
              job: summary.job,
              runId: summary.runId,
              error: describe(error),
            });
          }
        }),
      );
    }
    return this.raise(summary.findings);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.options.notifiers.map((n) => n.close()));
  }
}

function describe(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' && error instanceof Error)
    return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
