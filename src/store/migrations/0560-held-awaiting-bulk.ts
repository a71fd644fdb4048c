// Submit asks every night for the lines a person released from a duplicate hold that have not yet
// joined a bulk (src/store/held-payments.ts). It read every hold the company ever released, years
// of them, to find the few still waiting. A released hold now says it waits for a bulk until a
// read sees its line in one (or gone from accepted), through (company, awaiting_bulk).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('held_payments', (t) => {
    t.boolean('awaiting_bulk').notNullable().defaultTo(false);
    t.index(['company', 'awaiting_bulk'], 'held_payments_awaiting_bulk_ix');
  });
  await knex('held_payments')
    .where({ decision: 'released' })
    .whereIn('payment_id', knex('payments').select('id').where({ state: 'accepted' }).whereNull('bulk_id'))
    .update({ awaiting_bulk: true });
}
