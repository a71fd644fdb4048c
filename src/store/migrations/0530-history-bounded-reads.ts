// Reads a bureau's night makes that grew with its years of history, bounded by an index:
// - `payment_files.lines_changed_at`: when a line of the file last changed (the transition
//   function writes it with every move of payment lines, src/store/transitions.ts). The status
//   report finds the files whose lines changed in its window through (company,
//   lines_changed_at), not by reading every line the company ever paid for its `updated_at`.
//   Backfilled from the lines' own latest `updated_at`.
// - statement_days by continuity first: the operator's alerts read the days with a break in
//   every account (src/store/attention.ts), not every day of every account to find them.
import type { Knex } from 'knex';
import { INSTANT } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (t) => {
    t.string('lines_changed_at', INSTANT).nullable();
    t.index(['company', 'lines_changed_at'], 'payment_files_lines_changed_ix');
  });
  await knex('payment_files').update({
    lines_changed_at: knex('payments').max('updated_at').where('file_id', knex.ref('payment_files.id')),
  });
  await knex.schema.alterTable('statement_days', (t) => {
    t.index(['continuity', 'account_id', 'day'], 'statement_days_continuity_ix');
  });
}
