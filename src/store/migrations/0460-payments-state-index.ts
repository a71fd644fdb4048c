// payments_state_ix (state alone, 0001) goes: every query that picks lines by state names the
// company first and reads payments_console_state_ix (company, state, …) instead, and each of a
// bulk's moves rewrote a thousand entries of this index for nothing (the UPDATE of a bulk's
// state about a third cheaper without it; docs/performance.md, `payments-single`).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['state'], 'payments_state_ix');
  });
}
