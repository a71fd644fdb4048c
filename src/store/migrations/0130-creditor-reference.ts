// The structured creditor reference (KID, RF) of a bank transaction, as the bank sent it: the
// camt.054 credit notification and the receivables matching read it from here. Whether its check
// digits hold is decided when it is used, by the one domain function.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (table) => {
    table.string('creditor_reference', 140).nullable();
    table.string('creditor_reference_type', 35).nullable();
  });
}
