// The last success of each job for each company (migration 0110): written by the nightly chain
// after each step that completed for a company, read by /healthz and the dead-man check.
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toDate, toStr, type Row } from './rows.js';

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
    await this.db
      .knex('job_successes')
      .insert({ job, company, succeeded_at: instant(this.clock.now()), run_id: runId })
      .onConflict(['job', 'company'])
      .merge(['succeeded_at', 'run_id']);
  }

  async list(): Promise<JobSuccess[]> {
    const rows = await this.db.knex<Row>('job_successes').select().orderBy('job').orderBy('company');
    return rows.map((r) => ({
      job: toStr(r.job),
      company: toStr(r.company),
      succeededAt: toDate(r.succeeded_at),
      runId: toStr(r.run_id),
    }));
  }
}
