// A finding's sentence as recorded text (issue #53): the catalogue key and values of the sentence
// the reconcile run recorded with it, as JSON beside the English `summary`, so the console, the
// CLI and the report render it in their reader's language (docs/i18n.md, "Recorded text").
// Findings recorded before this migration have none and keep their English.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (table) => {
    table.text('summary_text').nullable();
  });
}
