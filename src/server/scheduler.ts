// Runs the jobs of `settle serve` on cron schedules (node-cron, evaluated in the configured
// IANA time zone), never two runs of one job at once:
//  - in this process: a tick that finds the job still running is skipped and logged;
//  - across instances: a job that claims its own units of work (the default jobs: per company,
//    src/store/unit-claims.ts) runs on every instance at once and they share the work; any
//    other job holds the named lease `job:<name>` in the database (LeaseRepository), renewed
//    while it runs; a crashed holder's lease expires after `schedule.jobLease`.
// Each run is recorded in job_runs (which /metrics reads), timed, and summarised (log + alerts).
// stop(): no new ticks, then wait (bounded) for running jobs; past the grace period their
// signal is aborted so they checkpoint at the next step boundary.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { Clock } from '../domain/clock.js';
import { isSettleError } from '../domain/errors.js';
import { recorded } from '../domain/recorded-text.js';
import { runLogger, type Logger } from '../log/index.js';
import type { AlertSubject, RunSummary } from '../alerts/index.js';
import type { JobRunRepository } from '../store/index.js';
import type { LeaseRepository } from '../store/index.js';
import type { Metrics } from './metrics.js';
import { JobOutcomes } from '../domain/job-outcome.js';

export interface JobResult {
  /** Needs a person (stored as `findings`); default: needs a person if anything does, else `ok`. */
  outcome?: typeof JobOutcomes.ok | typeof JobOutcomes.needsPerson;
  counts?: Record<string, number>;
  findings?: AlertSubject[];
}

/** A job as the composition root registers it. `signal` aborts on shutdown or a lost lease. */
export interface ScheduledJob {
  name: string;
  /**
   * The job claims its own units of work (per company or account), so instances run it at the
   * same time and share the work; without it, one `job:<name>` lease lets one instance run it.
   */
  claimsUnits?: boolean;
  run(runId: string, signal: AbortSignal): Promise<JobResult | void>;
}

export interface ScheduleEntry {
  job: ScheduledJob;
  /** Cron expression (5 fields, or 6 with seconds). */
  cron: string;
}

export interface SchedulerOptions {
  entries: readonly ScheduleEntry[];
  timeZone: string;
  leases: LeaseRepository;
  jobRuns: JobRunRepository;
  leaseTtlMs: number;
  logger: Logger;
  clock: Clock;
  metrics?: Metrics | undefined;
  /** Called with the summary of every finished run (alerts). Its failures are logged, not thrown. */
  onRunFinished?: ((summary: RunSummary) => Promise<unknown>) | undefined;
  /** Who holds leases; default host:pid:random. */
  holder?: string;
}

// `lease-held` (another instance has claimed the job) is also the `reason` label of
// settle_job_skipped_total: dashboards read it, so it keeps its name.
export type TriggerResult =
  | { ran: true; runId: string; outcome: RunSummary['outcome'] }
  | { ran: false; reason: 'running-here' | 'lease-held' | 'stopping'; claimedBy?: string };

export class Scheduler {
  readonly holder: string;
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Map<string, { promise: Promise<TriggerResult>; abort: AbortController }>();
  private stopping = false;

  constructor(private readonly options: SchedulerOptions) {
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    for (const { cron: expr, job } of options.entries) {
      if (!cron.validate(expr)) throw new Error(`invalid cron expression "${expr}" for job ${job.name}`); // the config schema checks the shape first
    }
  }

  get jobNames(): string[] {
    return [...new Set(this.options.entries.map((e) => e.job.name))];
  }

  /** Starts the cron schedules. */
  start(): void {
    const cronLog = this.options.logger.child({ component: 'cron' });
    for (const { cron: expr, job } of this.options.entries) {
      const task = cron.schedule(
        expr,
        async () => {
          await this.trigger(job.name).catch((error: unknown) =>
            this.options.logger.error('scheduled run could not be recorded', {
              job: job.name,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
        },
        {
          timezone: this.options.timeZone,
          name: job.name,
          logger: {
            info: (m) => cronLog.debug(m),
            warn: (m) => cronLog.warn(m),
            error: (m) => cronLog.error(typeof m === 'string' ? m : m.message),
            debug: (m) => cronLog.debug(typeof m === 'string' ? m : m.message),
          },
        },
      );
      this.tasks.push(task);
      this.options.logger.info('job scheduled', {
        job: job.name,
        cron: expr,
        timeZone: this.options.timeZone,
        next: task.getNextRun()?.toISOString(),
      });
    }
  }

  /** Runs a job now (a cron tick calls this too); skipped if it is running here or elsewhere. */
  async trigger(name: string): Promise<TriggerResult> {
    const job = this.options.entries.find((e) => e.job.name === name)?.job;
    if (!job) throw new Error(`no job named ${name}`);
    const log = this.options.logger;
    if (this.stopping) return { ran: false, reason: 'stopping' };
    if (this.running.has(name)) {
      log.warn('job still running; this tick is skipped', { job: name });
      this.options.metrics?.jobSkipped.inc({ job: name, reason: 'running-here' });
      return { ran: false, reason: 'running-here' };
    }
    const abort = new AbortController();
    const promise = this.runLeased(job, abort);
    this.running.set(name, { promise, abort });
    try {
      return await promise;
    } finally {
      this.running.delete(name);
    }
  }

  /** Stops the schedules, waits up to `graceMs` for running jobs, then aborts them and waits up to `abortWaitMs` more. */
  async stop(graceMs = 30_000, abortWaitMs = 10_000): Promise<{ unfinished: string[] }> {
    this.stopping = true;
    for (const task of this.tasks) await task.destroy();
    this.tasks.length = 0;
    const waitAll = (ms: number) =>
      Promise.race([Promise.allSettled([...this.running.values()].map((r) => r.promise)), delay(ms)]);
    if (this.running.size > 0) {
      this.options.logger.info('waiting for running jobs to finish', { jobs: [...this.running.keys()], graceMs });
      await waitAll(graceMs);
    }
    if (this.running.size > 0) {
      this.options.logger.warn(
        'jobs still running after the grace period; asking them to stop at the next checkpoint',
        { jobs: [...this.running.keys()] },
      );
      for (const r of this.running.values()) r.abort.abort(new Error('settle is shutting down'));
      await waitAll(abortWaitMs);
    }
    return { unfinished: [...this.running.keys()] };
  }

  private async runLeased(job: ScheduledJob, abort: AbortController): Promise<TriggerResult> {
    const { leases, leaseTtlMs, logger, metrics } = this.options;
    const runId = randomUUID();
    const log = runLogger(logger, job.name, runId);
    let outcome: RunSummary['outcome'] = 'failed';
    if (job.claimsUnits) {
      outcome = await this.runOnce(job, runId, abort.signal, log);
      return { ran: true, runId, outcome };
    }
    const leased = await leases.runWithLease(
      `job:${job.name}`,
      this.holder,
      leaseTtlMs,
      async (lost) => {
        const signal = AbortSignal.any([lost, abort.signal]);
        outcome = await this.runOnce(job, runId, signal, log);
      },
      log,
    );
    if (!leased.ran) {
      log.info('job skipped: another instance has claimed it', { claimedBy: leased.claimedBy });
      metrics?.jobSkipped.inc({ job: job.name, reason: 'lease-held' });
      return { ran: false, reason: 'lease-held', ...(leased.claimedBy ? { claimedBy: leased.claimedBy } : {}) };
    }
    return { ran: true, runId, outcome };
  }

  private async runOnce(
    job: ScheduledJob,
    runId: string,
    signal: AbortSignal,
    log: Logger,
  ): Promise<RunSummary['outcome']> {
    const { jobRuns, clock, metrics } = this.options;
    const record = await jobRuns.start(job.name, runId, this.holder);
    const startedAt = clock.now();
    const started = performance.now();
    log.info('job started', { holder: this.holder });
    let summary: RunSummary;
    try {
      const result = (await job.run(runId, signal)) ?? {};
      const findings = result.findings ?? [];
      const outcome = result.outcome ?? (findings.length ? JobOutcomes.needsPerson : JobOutcomes.ok);
      summary = {
        job: job.name,
        runId,
        startedAt,
        finishedAt: clock.now(),
        outcome,
        counts: result.counts ?? {},
        findings,
      };
    } catch (error) {
      const code = isSettleError(error) ? error.code : 'ERR_INTERNAL';
      const message = error instanceof Error ? error.message : String(error);
      log.error('job failed', { code, error: message });
      const day = startedAt.toISOString().slice(0, 10);
      const finding: AlertSubject = {
        kind: 'job-failed',
        key: `job-failed:${job.name}:${code}:${day}`,
        title: `settle ${job.name} failed: ${code}`,
        text: `The ${job.name} job failed with ${code}: ${message}\nIt runs again at its next scheduled time. docs/errors.md explains the code.`,
        // No company: the mail reads in the install's language (docs/i18n.md).
        words: {
          title: recorded('alerts.jobFailed.title', { job: job.name, code }),
          text: recorded('alerts.jobFailed.text', { job: job.name, code, message }),
        },
        data: { job: job.name, runId, code },
      };
      summary = {
        job: job.name,
        runId,
        startedAt,
        finishedAt: clock.now(),
        outcome: 'failed',
        counts: {},
        findings: [finding],
        error: { code, message },
      };
    }
    const seconds = (performance.now() - started) / 1000;
    await jobRuns.finish(record.id, summary.outcome, {
      counts: summary.counts,
      findings: summary.findings.map((f) => f.key),
      ...(summary.error ? { error: summary.error } : {}),
    });
    // Runs by outcome and the last success are read from job_runs at scrape time (metrics.ts).
    metrics?.jobDuration.observe({ job: job.name }, seconds);
    log.info('job finished', { outcome: summary.outcome, seconds: Number(seconds.toFixed(3)), counts: summary.counts });
    if (this.options.onRunFinished) {
      try {
        await this.options.onRunFinished(summary);
      } catch (error) {
        log.error('run summary could not be handled', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return summary.outcome;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
