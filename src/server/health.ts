// /healthz: is the database answering, and when did each job last run and how did it end.
// 200 with `status: "ok"` when the database answers; 503 with `status: "unavailable"` otherwise.
// Beside it: each job's last success per company (every entry point records them) and the
// dead-man deadlines (alerts.nightlyBy, alerts.statementsBy) with whether one was missed; and
// the companies of the running configuration with the last reload's outcome.
import type { Clock } from '../domain/clock.js';
import { deadlineView, type DeadlineStatus } from '../domain/deadline.js';
import type { Database, JobSuccess } from '../store/index.js';
import type { JobRunRepository } from '../store/index.js';

export interface JobHealth {
  lastRun?: { runId: string; startedAt: string; finishedAt?: string; outcome: string; holder?: string };
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  time: string;
  database: { ok: boolean; description: string; error?: string };
  jobs: Record<string, JobHealth>;
  /** Job → company → when it last completed (RFC 3339). */
  lastSuccess: Record<string, Record<string, string>>;
  deadlines: ReturnType<typeof deadlineView>[];
  /** True when any deadline is missed: the service answers, but the night's work is not done. */
  deadlineMissed: boolean;
  /** The running configuration: its companies, and the last reload's outcome (src/main/reload.ts). */
  configuration?: ConfigurationHealth;
}

export interface ConfigurationHealth {
  companies: string[];
  lastReload?: {
    at: string;
    outcome: 'applied' | 'refused';
    /** Why it was refused, each problem with its file and line when in an included file. */
    problems?: { path: string; message: string; file?: string; line?: number }[];
  };
}

export interface HealthOptions {
  db: Database;
  jobRuns: JobRunRepository;
  jobNames: readonly string[];
  clock: Clock;
  successes?: () => Promise<JobSuccess[]>;
  deadlines?: () => Promise<DeadlineStatus[]>;
  configuration?: () => ConfigurationHealth;
  /** Longest the database may take to answer `select 1`. */
  timeoutMs?: number;
}

export function createHealthCheck(options: HealthOptions): () => Promise<HealthReport> {
  return async () => {
    const report: HealthReport = {
      status: 'ok',
      time: options.clock.now().toISOString(),
      database: { ok: true, description: options.db.description },
      jobs: {},
      lastSuccess: {},
      deadlines: [],
      deadlineMissed: false,
      ...(options.configuration ? { configuration: options.configuration() } : {}),
    };
    try {
      await withTimeout(options.db.ping(), options.timeoutMs ?? 3000);
      for (const job of options.jobNames) {
        const [last] = await options.jobRuns.recent(job, 1);
        report.jobs[job] = last
          ? {
              lastRun: {
                runId: last.runId,
                startedAt: last.startedAt.toISOString(),
                ...(last.finishedAt ? { finishedAt: last.finishedAt.toISOString() } : {}),
                outcome: last.outcome,
                ...(last.holder ? { holder: last.holder } : {}),
              },
            }
          : {};
      }
      for (const s of (await options.successes?.()) ?? [])
        (report.lastSuccess[s.job] ??= {})[s.company] = s.succeededAt.toISOString();
      report.deadlines = ((await options.deadlines?.()) ?? []).map(deadlineView);
      report.deadlineMissed = report.deadlines.some((d) => d.missed);
    } catch (error) {
      report.status = 'unavailable';
      // The driver message is safe (database.ts redacts URLs), but keep it to one short line.
      report.database = {
        ok: false,
        description: options.db.description,
        error: (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 200) ?? 'error',
      };
    }
    return report;
  };
}

function withTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    Promise.resolve(promise).then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
