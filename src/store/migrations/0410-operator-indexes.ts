// The console's operator lists (src/store/operator-views.ts) page by keyset like the other
// console lists (0240): each list's WHERE and ORDER BY are the leading columns of one of these
// indexes, so a page is one index range scan however many bulks, held lines or cancellation
// requests the install has kept. The trailing `id` tells apart rows with equal sort keys.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bulks', (t) => {
    t.index(['company', 'state', 'id'], 'bulks_console_state_ix');
  });
  await knex.schema.alterTable('held_payments', (t) => {
    t.index(['company', 'decision', 'held_at', 'id'], 'held_payments_console_ix');
  });
  await knex.schema.alterTable('cancellations', (t) => {
    t.index(['company', 'outcome', 'requested_at', 'id'], 'cancellations_console_ix');
  });
}
