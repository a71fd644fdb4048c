// The record of every job run: when it started and finished, how it ended and a summary for
// the report and /metrics. A run left "running" by a crash stays visible as such.
import type { Clock } from '../domain/clock.js';
import type { FinishedOutcome } from '../domain/job-outcome.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import { instant, toDate, toInt, toJson, toOptDate, toOptStr, toStr, type Row } from './rows.js';

export type JobOutcome = 'running' | FinishedOutcome;

export interface JobRun {
  id: string;
  job: string;
  runId: string;
  holder?: string;
  startedAt: Date;
  finishedAt?: Date;
  outcome: JobOutcome;
  summary?: unknown;
}

export interface FinishedRuns {
  job: string;
  outcome: Exclude<JobOutcome, 'running'>;
  runs: number;
  lastFinishedAt?: Date;
}

export class JobRunRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async start(job: string, runId: string, holder?: string): Promise<JobRun> {
    const id = newId(this.clock);
    const startedAt = this.clock.now();
    await this.db
      .knex('job_runs')
      .insert({ id, job, run_id: runId, holder: holder ?? null, started_at: instant(startedAt), outcome: 'running' });
    return { id, job, runId, ...(holder === undefined ? {} : { holder }), startedAt, outcome: 'running' };
  }

  /** `summary` must hold no secrets; it is shown in reports. bigint values are stored as strings. */
  async finish(id: string, outcome: Exclude<JobOutcome, 'running'>, summary?: unknown): Promise<void> {
    await this.db
      .knex('job_runs')
      .where({ id })
      .update({
        finished_at: instant(this.clock.now()),
        outcome,
        summary_json:
          summary === undefined
            ? null
            : JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      });
  }

  async get(id: string): Promise<JobRun | undefined> {
    const row = await this.db.knex<Row>('job_runs').where({ id }).first();
    return row ? toJobRun(row) : undefined;
  }

  /** The most recent runs of a job, newest first. */
  async recent(job: string, limit = 10): Promise<JobRun[]> {
    return (
      await this.db
        .knex<Row>('job_runs')
        .where({ job })
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
    ).map(toJobRun);
  }

  /**
   * Finished runs by job and outcome, with the last finish of each: what /metrics shows at
   * scrape time, whichever process ran them (`settle serve`, the CLI, a systemd timer). Runs the
   * retention purge deleted are no longer counted.
   */
  async finishedByOutcome(): Promise<FinishedRuns[]> {
    const rows = await this.db
      .knex<Row>('job_runs')
      .whereNot('outcome', 'running')
      .select('job', 'outcome')
      .count({ runs: '*' })
      .max({ last: 'finished_at' })
      .groupBy('job', 'outcome')
      .orderBy('job')
      .orderBy('outcome');
    return rows.map((r) => {
      const lastFinishedAt = toOptDate(r.last);
      return {
        job: toStr(r.job),
        outcome: toStr(r.outcome) as FinishedRuns['outcome'],
        runs: toInt(r.runs),
        ...(lastFinishedAt === undefined ? {} : { lastFinishedAt }),
      };
    });
  }

  /** The latest run of every job that ever ran, by job name. */
  async latestPerJob(): Promise<JobRun[]> {
    const latest = this.db.knex('job_runs').select('job').max({ started: 'started_at' }).groupBy('job').as('l');
    const rows = await this.db
      .knex<Row>('job_runs as r')
      .join(latest, (j) => j.on('r.job', '=', 'l.job').andOn('r.started_at', '=', 'l.started'))
      .select('r.*')
      .orderBy('r.job')
      .orderBy('r.id', 'desc');
    const seen = new Set<string>();
    return rows.map(toJobRun).filter((run) => !seen.has(run.job) && seen.add(run.job));
  }
}

function toJobRun(r: Row): JobRun {
  const holder = toOptStr(r.holder);
  const finishedAt = toOptDate(r.finished_at);
  const summary = toJson(r.summary_json);
  return {
    id: toStr(r.id),
    job: toStr(r.job),
    runId: toStr(r.run_id),
    ...(holder === undefined ? {} : { holder }),
    startedAt: toDate(r.started_at),
    ...(finishedAt === undefined ? {} : { finishedAt }),
    outcome: toStr(r.outcome) as JobOutcome,
    ...(summary === undefined ? {} : { summary }),
  };
}
