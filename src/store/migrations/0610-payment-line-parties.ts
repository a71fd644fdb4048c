// What a pain.001 or CSV line may say beyond the payee and the amount, now carried to the bank in
// the bulk request (issue #47): the ultimate debtor and creditor (on whose behalf the payment is
// made, and for whom it is meant; names, as the request takes them) and the ISO purpose code.
// Lines accepted before this migration have none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.string('ultimate_debtor', 70).nullable();
    table.string('ultimate_creditor', 70).nullable();
    table.string('purpose', 4).nullable();
  });
}
