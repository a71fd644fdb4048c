// Retention (src/store/retention.ts): a mark on bank transactions whose raw JSON was reduced
// to what statements need, and the indexes the purge selects by, so a purge reads only what
// it deletes however many years the tables hold.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.boolean('raw_trimmed').notNullable().defaultTo(false);
    t.index(['account_id', 'raw_trimmed', 'first_seen_at'], 'transactions_raw_trim_ix');
  });
  await knex.schema.alterTable('payment_files', (t) => {
    t.index(['company', 'received_at'], 'payment_files_company_received_ix');
  });
  await knex.schema.alterTable('webhook_events', (t) => {
    t.index(['received_at'], 'webhook_events_received_ix');
  });
  await knex.schema.alterTable('job_runs', (t) => {
    t.index(['started_at'], 'job_runs_started_ix');
  });
  await knex.schema.alterTable('exports', (t) => {
    t.index(['company', 'exported_at'], 'exports_company_exported_ix');
  });
}
