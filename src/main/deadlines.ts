// The dead-man alert: when the nightly chain (alerts.nightlyBy) or the statement export
// (alerts.statementsBy) has not completed for a company by its deadline in the company's time
// zone, settle says so — an error log line with the event `deadline-missed`, the metric
// settle_deadline_missed, and an alert sent once per deadline to the alert channels.
// `settle serve` checks every minute; `settle health` checks once (for a systemd timer).
// The alert's mail reads in the company's language (`words`); its log line stays English.
import type { Config } from '../config/index.js';
import { instantFigure, recorded } from '../domain/recorded-text.js';
import { deadlineStatus, type Deadline, type DeadlineStatus } from '../domain/deadline.js';
import type { AlertService, AlertSubject } from '../alerts/index.js';
import type { Metrics } from '../server/index.js';
import type { App } from './app.js';

/** Which unit of work each deadline key watches (its last success per company). */
const WATCHED = [
  ['nightlyBy', 'nightly'],
  ['statementsBy', 'export'],
] as const;

/** The jobs whose last success per company the deadlines and /metrics watch. */
export const WATCHED_JOBS: readonly string[] = WATCHED.map(([, job]) => job);

export function configuredDeadlines(config: Pick<Config, 'alerts' | 'companies' | 'timeZone'>): Deadline[] {
  return WATCHED.flatMap(([key, job]) => {
    const by = config.alerts[key];
    if (by === undefined) return [];
    return config.companies.map((c) => ({ job, company: c.id, by, timeZone: c.timeZone ?? config.timeZone }));
  });
}

export async function deadlineStatuses(app: Pick<App, 'config' | 'store' | 'clock'>): Promise<DeadlineStatus[]> {
  const deadlines = configuredDeadlines(app.config);
  if (deadlines.length === 0) return [];
  // By job and company, looked up once a deadline: a bureau's thousands of companies have two deadlines
  // and about as many successes each, read every minute and on every health check.
  const successes = new Map((await app.store.jobSuccesses.list()).map((s) => [`${s.job}\u0000${s.company}`, s]));
  const now = app.clock.now();
  return deadlines.map((d) => deadlineStatus(d, successes.get(`${d.job}\u0000${d.company}`)?.succeededAt, now));
}

function alertSubject(s: DeadlineStatus): AlertSubject {
  const what = s.job === 'nightly' ? 'The nightly chain' : 'The statement export';
  const last = s.lastSuccess ? `it last completed at ${s.lastSuccess.toISOString()}` : 'it has never completed';
  return {
    kind: 'deadline-missed',
    key: `deadline-missed:${s.job}:${s.company}:${s.dueAt.toISOString()}`,
    title: `${s.company}: ${s.job === 'nightly' ? 'nightly chain' : 'statements'} not completed by ${s.by}`,
    text: `${what} of ${s.company} had not completed by ${s.by} (${s.timeZone}); ${last}. Check that settle serve or the systemd timer runs and what the last run said (docs/runbook.md, "A deadline was missed").`,
    company: s.company,
    words: {
      title: recorded('alerts.deadlineMissed.title', { company: s.company, job: s.job, by: s.by }),
      text: recorded('alerts.deadlineMissed.text', {
        company: s.company,
        job: s.job,
        by: s.by,
        timeZone: s.timeZone,
        last: s.lastSuccess ? instantFigure(s.lastSuccess, s.timeZone) : 'never',
      }),
    },
    data: {
      job: s.job,
      by: s.by,
      timeZone: s.timeZone,
      dueAt: s.dueAt.toISOString(),
      lastSuccess: s.lastSuccess?.toISOString() ?? null,
    },
  };
}

/** Checks the deadlines, and raises each missed one: log (once per deadline and process), metric, alert channels. */
export class DeadlineWatch {
  private readonly logged = new Set<string>();

  constructor(
    private readonly app: Pick<App, 'config' | 'store' | 'clock' | 'logger'>,
    private readonly alerts: AlertService,
    private readonly metrics?: Metrics,
  ) {}

  async check(): Promise<DeadlineStatus[]> {
    const statuses = await deadlineStatuses(this.app);
    const missed = statuses.filter((s) => s.missed);
    for (const s of statuses) this.metrics?.deadlineMissed.set({ job: s.job, company: s.company }, s.missed ? 1 : 0);
    for (const s of missed) {
      const f = alertSubject(s);
      if (this.logged.has(f.key)) continue;
      this.logged.add(f.key);
      this.app.logger.error('deadline missed', {
        event: 'deadline-missed',
        job: s.job,
        company: s.company,
        by: s.by,
        dueAt: s.dueAt.toISOString(),
        lastSuccess: s.lastSuccess?.toISOString() ?? null,
      });
    }
    if (missed.length > 0) await this.alerts.raise(missed.map(alertSubject));
    return statuses;
  }
}
