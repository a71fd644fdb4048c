// The reports settle writes for people (a refused file's error report, a reconciliation run's
// CSV and HTML), recorded when they are written: the console links a report by this row's id
// and serves the content kept here, so no path or file name from a request ever reaches the
// file store. The files in the company's folders stay what the ERP and people read.
import type { Knex } from 'knex';
import { bigText, ID, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reports', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    /** error | reconciliation */
    t.string('kind', 20).notNullable();
    /** What the report is about: payment_file (its id) or reconcile_run (the run id). */
    t.string('subject_type', 30).notNullable();
    t.string('subject_id', 100).notNullable();
    /** The file's name as written in the company's folder (shown, never used as a path). */
    t.string('name', 255).notNullable();
    t.string('media_type', 60).notNullable();
    bigText(t, 'content').notNullable();
    t.string('created_at', INSTANT).notNullable();
    t.index(['company', 'subject_type', 'subject_id'], 'reports_subject_ix');
    t.index(['company', 'kind', 'created_at', 'id'], 'reports_console_ix');
  });
}
