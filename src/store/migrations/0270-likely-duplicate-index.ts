// The likely-duplicate check of pickup (src/store/held-payments.ts) looks up a company's
// earlier payments by creditor account, once for each new creditor of every batch of lines it
// stores: without this index each look-up scanned all the company's payments, years of them
// and the file's own lines so far, which made a large file's pickup quadratic.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.index(['company', 'creditor_iban', 'created_at'], 'payments_company_creditor_ix');
  });
}
