// Migrations 0410 (operator lists) and 0420 (Today) were written side by side and both added a
// (`company`, `state`, `id`) index on bulks. One is enough: the Unknown bulks list and Today's
// bulks both read `bulks_today_ix`, so the operator one is dropped (a second copy only costs
// writes and space).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bulks', (t) => {
    t.dropIndex(['company', 'state', 'id'], 'bulks_console_state_ix');
  });
}
