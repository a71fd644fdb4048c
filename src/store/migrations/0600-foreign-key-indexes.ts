// Two foreign keys without an index of their own on SQLite: held_payments.matched_payment_id
// (the payment a held line was matched to) and cancellations.resent_bulk_id (the bulk a
// cancelled one was sent again as). MariaDB makes an index for every foreign key; SQLite makes
// none, and checks a foreign key from the parent's side by reading the child table: each
// payment the retention purge deletes read every held payment ever kept, and each bulk every
// cancellation request, besides the purge's own delete by matched_payment_id. The indexes are
// made where the engine has none (test/store/foreign-key-indexes.test.ts keeps every foreign key
// indexed).
import type { Knex } from 'knex';
import { isMysqlKnex } from '../rows.js';

export async function up(knex: Knex): Promise<void> {
  if (isMysqlKnex(knex)) return;
  await knex.schema.alterTable('held_payments', (t) => {
    t.index(['matched_payment_id'], 'held_payments_matched_payment_ix');
  });
  await knex.schema.alterTable('cancellations', (t) => {
    t.index(['resent_bulk_id'], 'cancellations_resent_bulk_ix');
  });
}
