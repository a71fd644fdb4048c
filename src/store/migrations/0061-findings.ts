// Reconciliation findings that need (or needed) a person, per company, with the decision a
// person took on each: the reconcile job records every run's findings here, so
// `settle findings` can list and acknowledge them and the next run honours the decision for as
// long as the finding's facts stay the same.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('findings', (table) => {
    tableOptions(knex, table);
    table.string('company', 32).notNullable();
    table.string('id', 40).notNullable();
    table.primary(['company', 'id']);
    table.string('type', 40).notNullable();
    table.string('fact_hash', 64).notNullable();
    table.string('subject', 255).notNullable();
    table.text('summary').notNullable();
    table.string('first_seen_at', INSTANT).notNullable();
    table.string('last_seen_at', INSTANT).notNullable();
    table.string('last_run_id', 64).notNullable();
    /** In the company's latest run. */
    table.boolean('present').notNullable();
    /** open | acknowledged | confirmed | rejected */
    table.string('decision', 16).notNullable();
    /** The fact hash the decision was taken on: a different hash now means the facts changed. */
    table.string('decided_hash', 64).nullable();
    table.string('decided_by', 200).nullable();
    table.string('decided_at', INSTANT).nullable();
    table.text('decided_reason').nullable();
    table.index(['company', 'present']);
  });
}
