// On SQLite the console's index of payments by state keeps only the lines in a state a person
// acts on: waiting for a bulk, held, unknown, rejected or cancelled (a partial index;
// src/store/state-index.ts). A bulk's lines move in thousands through the states of the bank's
// answers (queued, ACCP, ACSP, ACSC …), and each move rewrote a thousand entries of this index
// that no search needs (decision 0015, "The index of the states at rest"). The condition is a list
// of comparisons: SQLite tests an `in (…)` list of five through a table of its own, for each row
// a move changes. MariaDB has no partial index: its index stays whole.
//
// Beside it, on both engines, each bulk's lines per state (src/store/state-counts.ts), filled here
// from the lines: a search for a state the index does not hold that few lines are in finds them
// through their bulks instead of walking every newer line.
import type { Knex } from 'knex';
import { isMysqlKnex } from '../rows.js';
import { tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bulk_line_counts', (t) => {
    tableOptions(knex, t);
    // No foreign key, as state_counts has none: a count is the last row its transaction locks,
    // and a reference would also lock the bulk's row (retention deletes a bulk's counts with it).
    t.string('bulk_id', 36).notNullable();
    t.string('state', 20).notNullable();
    t.string('company', 100).notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['bulk_id', 'state']);
    t.index(['company', 'state', 'bulk_id'], 'bulk_line_counts_company_ix');
  });
  await knex
    .insert(
      knex('payments')
        .select('bulk_id', 'state', 'company', knex.raw('count(*) as n'))
        .whereNotNull('bulk_id')
        .groupBy('bulk_id', 'state', 'company'),
    )
    .into(knex.raw('?? (bulk_id, state, company, n)', ['bulk_line_counts']));
  if (isMysqlKnex(knex)) return;
  await knex.raw('drop index payments_console_state_ix');
  // The text as of this migration; src/store/state-index.ts's AT_REST_CONDITION is the same.
  await knex.raw(
    'create index payments_console_state_ix on payments (company, state, execution_date, id) where ' +
      "(state = 'accepted' or state = 'held' or state = 'unknown' or state = 'RJCT' or state = 'CANC')",
  );
}
