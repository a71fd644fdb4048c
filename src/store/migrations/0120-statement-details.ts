// What a bank's statement carries beyond the basics, stored when the transaction is fetched so
// an export never digs in the raw JSON: the servicer's (archive) reference, the booking text,
// the bank's transaction code, the instruction id, the bank's payment id (a batch-booked bulk is
// one transaction carrying the bulk's id), the instructed amount, and the reason of a return.
// And the legal sequence numbers of statements: per account and year, one per day, kept so a
// re-export carries the number of the first.
import type { Knex } from 'knex';
import { DATE, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (table) => {
    table.string('account_servicer_ref', 100).nullable();
    table.text('additional_info').nullable();
    table.string('bank_transaction_code', 100).nullable();
    table.string('instruction_id', 100).nullable();
    table.string('bank_payment_id', 100).nullable();
    table.bigInteger('instructed_minor').nullable(); // minor units, like every amount column
    table.string('instructed_currency', 3).nullable();
    table.string('return_reason', 35).nullable();
    table.index(['bank_payment_id'], 'transactions_bank_payment_ix');
  });

  await knex.schema.createTable('legal_sequence_numbers', (t) => {
    tableOptions(knex, t);
    t.string('account_id', 100).notNullable().references('id').inTable('accounts');
    t.string('day', DATE).notNullable();
    t.integer('year').notNullable();
    t.integer('number').notNullable();
    t.string('assigned_at', INSTANT).notNullable();
    t.primary(['account_id', 'day']);
    // Two exports at once cannot both take the next number: the second insert fails and retries.
    t.unique(['account_id', 'year', 'number'], { indexName: 'legal_sequence_numbers_uq' });
  });
}
