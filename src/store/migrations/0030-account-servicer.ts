// The bank that services each account (camt.053 Acct/Svcr): its BIC and name, read from the
// bank directory when the account is fetched, so an export never needs the bank.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (table) => {
    table.string('servicer_bic', 11).nullable();
    table.string('servicer_name', 140).nullable();
  });
}
