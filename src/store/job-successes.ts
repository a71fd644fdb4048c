// The last success of each job for each company (migration 0110): written by the nightly chain
// after each step that completed for a company, read by /healthz and the dead-man check.
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toDate, toStr, type Row } from './rows.js';
import { againOnDeadlock } from './deadlock.js';

export interface JobSuccess {
  job: string;
  company: string;
  succeededAt: Date;
  runId: string;
}

export class JobSuccessRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Records that `job` completed for `company` now (replacing the earlier success). */
  async record(job: string, company: string, runId: string): Promise<void> {
    await this.recordAll([{ job, company }], runId);
  }

  /**
   * Records several successes now in one statement (the nightly chain writes a company's steps
   * together at its end); a job and company named twice is one row.
   */
  async recordAll(done: readonly { job: string; company: string }[], runId: string): Promise<void> {
    const at = instant(this.clock.now());
    const rows = new Map(done.map(({ job, company }) => [`${job}\u0000${company}`, { job, company }]));
    if (rows.size === 0) return;
    await againOnDeadlock(() =>
      this.db
        .knex('job_successes')
        .insert([...rows.values()].map((r) => ({ ...r, succeeded_at: at, run_id: runId })))
        .onConflict(['job', 'company'])
        .merge(['succeeded_at', 'run_id']),
    );
  }

  /** Every job's last success per company, or only those of `jobs`. */
  async list(jobs?: readonly string[]): Promise<JobSuccess[]> {
    const query = this.db.knex<Row>('job_successes').select().orderBy('job').orderBy('company');
    if (jobs) void query.whereIn('job', jobs);
    const rows = await query;
    return rows.map((r) => ({
      job: toStr(r.job),
      company: toStr(r.company),
      succeededAt: toDate(r.succeeded_at),
      runId: toStr(r.run_id),
    }));
  }
}
