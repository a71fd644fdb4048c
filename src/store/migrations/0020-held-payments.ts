// Payment lines held as likely duplicates of a payment accepted from another file (same creditor
// account, amount and reference within the company's duplicate window): one row per held line,
// with what it matched and, once a person decided, who released or dropped it, when and why.
import type { Knex } from 'knex';
import { ID, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('held_payments', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('payment_id', ID).notNullable().references('id').inTable('payments');
    t.string('company', 100).notNullable();
    t.string('matched_payment_id', ID).notNullable().references('id').inTable('payments');
    t.string('reason', 500).notNullable();
    t.string('held_at', INSTANT).notNullable();
    // null while it waits for a person; then 'released' or 'dropped'.
    t.string('decision', 10).nullable();
    t.string('decided_by', 200).nullable();
    t.string('decided_at', INSTANT).nullable();
    t.string('decision_reason', 500).nullable();
    t.unique(['payment_id'], { indexName: 'held_payments_payment_uq' });
    t.index(['company', 'decision'], 'held_payments_company_decision_ix');
  });
  // The duplicate check looks up recent payments to a creditor account.
  await knex.schema.alterTable('payments', (t) => {
    t.index(['company', 'creditor_iban', 'amount_minor'], 'payments_company_creditor_amount_ix');
  });
}
