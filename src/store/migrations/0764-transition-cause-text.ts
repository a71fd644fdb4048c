// A transition's cause as recorded text (issue #53): the catalogue key and values of the cause a
// move records (src/domain/transition-cause.ts), as JSON beside the English `cause`, so a
// payment's history (the console's payment page, `settle payments show`) reads in the reader's
// language. Moves recorded before this migration have none and keep their English.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transitions', (table) => {
    table.text('cause_text').nullable();
  });
}
