// A hold's evidence as recorded text (issue #53): the catalogue key and values of what the
// payment controls saw, as JSON beside the English `evidence`, so the Held payments page and
// `settle payments held` read it in their reader's language (docs/i18n.md, "Recorded text").
// Holds recorded before this migration have none and keep their English.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('held_payments', (table) => {
    table.text('evidence_text').nullable();
  });
}
