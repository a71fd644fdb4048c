// The account directory of each company as its banks list it: which account is at which bank,
// whether it is `enabled`, and whether its payments wait for a signing basket (the account's
// parameters preApproval and numberOfApprovers). Pickup checks debtor accounts against it, submit
// finds the bank (and so the consent) of a debtor account in it, approve groups baskets by bank.
// `bank_account_reads` keeps when each company's list was last read, also when it was empty.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bank_accounts', (t) => {
    tableOptions(knex, t);
    t.string('company', 100).notNullable();
    t.string('account_id', 100).notNullable(); // the bank's account resource id
    t.string('bank_id', 100).nullable(); // absent when the bank's list names none
    t.string('iban', 34).nullable();
    t.string('bban', 34).nullable();
    t.string('currency', 3).nullable();
    t.string('name', 140).nullable();
    t.string('status', 30).nullable(); // as the bank spells it; only `enabled` is usable (spec §3.3)
    t.boolean('pre_approval').nullable(); // unknown until the parameters were read
    t.integer('number_of_approvers').nullable();
    t.string('read_at', INSTANT).notNullable();
    t.primary(['company', 'account_id']);
    t.index(['company', 'iban'], 'bank_accounts_iban_ix');
  });
  await knex.schema.createTable('bank_account_reads', (t) => {
    tableOptions(knex, t);
    t.string('company', 100).primary();
    t.string('read_at', INSTANT).notNullable();
  });
}
