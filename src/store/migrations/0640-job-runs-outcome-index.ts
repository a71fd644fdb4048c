// /metrics counts the finished job runs by job and outcome, with the last finish of each, at
// every scrape (JobRunRepository.finishedByOutcome): with this index that is a walk of the index
// alone, not of every run's row and summary kept for retention.operational.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('job_runs', (t) => {
    t.index(['job', 'outcome', 'finished_at'], 'job_runs_outcome_ix');
  });
}
