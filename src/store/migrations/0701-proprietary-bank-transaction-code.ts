// The bank's own transaction code of a booking (proprietaryBankTransactionCode), kept beside its
// ISO code so camt.053 and camt.054 write both in BkTxCd (Domn and Prtry), as the bank gave them
// (issue #47). A bank that gives only its own code still has it in bank_transaction_code.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (table) => {
    table.string('proprietary_bank_transaction_code', 100).nullable();
  });
}
