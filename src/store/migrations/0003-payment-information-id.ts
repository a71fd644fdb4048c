// The pain.001 PmtInfId of each payment line: pain.002 status reports group the lines by the
// ERP's own payment information blocks (OrgnlPmtInfId), as the ERP expects to match them.
// Lines accepted before this migration have none; their reports keep grouping by bulk.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.string('payment_information_id', 35).nullable();
  });
}
