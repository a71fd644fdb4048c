// The last success of each job for each company: what /healthz shows and what the dead-man
// alert compares with its deadlines. One row per (job, company), replaced by each success, so
// it stays small however many runs there are; job_runs keeps the history of `settle serve`.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_successes', (table) => {
    tableOptions(knex, table);
    table.string('job', 40).notNullable();
    table.string('company', 32).notNullable();
    table.primary(['job', 'company']);
    table.string('succeeded_at', INSTANT).notNullable();
    table.string('run_id', 64).notNullable();
  });
}
