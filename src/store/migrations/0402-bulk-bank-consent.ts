// Which bank and consent each bulk was sent under (spec §4.6: a payment is initiated under the
// Consent-ID of its debtor account's bank). Recorded with the bank's answer, so a payment's story
// says it without asking the bank, also after the consent was renewed. Null for bulks sent before
// this migration and for companies that name no bank (the resource group chose the context).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bulks', (t) => {
    t.string('bank_id', 100).nullable();
    t.string('consent_id', 100).nullable();
  });
}
