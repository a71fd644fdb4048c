// Migration 0001, payment side: the file ledger, payment lines, bulks (the outbox), signing
// baskets, consents and the transition log. Forward-only and frozen once released: later
// work adds columns and tables in new migrations.
import type { Knex } from 'knex';
import { amount, DATE, ID, INSTANT, leaseColumns, tableOptions, timestamps } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_files', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    t.string('file_name', 255).notNullable();
    t.string('source', 1000).nullable();
    t.string('sha256', 64).notNullable();
    t.string('format', 60).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('received_at', INSTANT).notNullable();
    t.string('state', 20).notNullable();
    t.integer('line_count').notNullable().defaultTo(0);
    t.integer('accepted_count').notNullable().defaultTo(0);
    t.integer('rejected_count').notNullable().defaultTo(0);
    t.text('totals_json').nullable(); // {"EUR":"123450"}: minor units as strings
    t.text('error_summary').nullable();
    leaseColumns(t);
    timestamps(t);
    t.unique(['company', 'sha256'], { indexName: 'payment_files_company_sha256_uq' });
    t.index(['state'], 'payment_files_state_ix');
  });

  await knex.schema.createTable('bulks', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('file_id', ID).notNullable().references('id').inTable('payment_files');
    t.integer('position').notNullable();
    t.string('company', 100).notNullable();
    t.string('debtor_iban', 34).notNullable();
    t.string('execution_date', DATE).notNullable();
    t.boolean('batch_booking').notNullable();
    t.string('idempotency_key', ID).notNullable();
    t.string('state', 20).notNullable();
    t.string('bank_payment_id', 100).nullable();
    t.string('bank_status', 4).nullable();
    t.integer('line_count').notNullable();
    t.text('totals_json').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('first_sent_at', INSTANT).nullable();
    t.string('last_attempt_at', INSTANT).nullable();
    t.text('last_problem').nullable(); // problem details JSON of the last failure
    leaseColumns(t);
    timestamps(t);
    t.unique(['idempotency_key'], { indexName: 'bulks_idempotency_key_uq' });
    t.unique(['file_id', 'position'], { indexName: 'bulks_file_position_uq' });
    t.index(['state'], 'bulks_state_ix');
    t.index(['bank_payment_id'], 'bulks_bank_payment_id_ix');
  });

  await knex.schema.createTable('payments', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('file_id', ID).notNullable().references('id').inTable('payment_files');
    t.integer('line_number').notNullable();
    t.string('company', 100).notNullable();
    t.string('end_to_end_id', 64).notNullable();
    t.string('debtor_iban', 34).notNullable();
    t.string('debtor_name', 140).notNullable();
    t.string('execution_date', DATE).notNullable();
    amount(t, 'amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.string('creditor_iban', 34).notNullable();
    t.string('creditor_name', 140).notNullable();
    t.string('creditor_bic', 11).nullable();
    t.string('remittance', 500).nullable();
    t.string('creditor_reference', 35).nullable();
    t.string('priority', 10).nullable();
    t.boolean('batch_booking').nullable();
    t.string('state', 20).notNullable();
    t.string('bulk_id', ID).nullable().references('id').inTable('bulks');
    t.string('bank_status', 4).nullable();
    t.text('tpp_messages').nullable(); // JSON array of {category, code, message}
    timestamps(t);
    // Accepted payments only are stored, so this is "unique per company among accepted payments".
    t.unique(['company', 'end_to_end_id'], { indexName: 'payments_company_e2e_uq' });
    t.index(['file_id', 'line_number'], 'payments_file_line_ix');
    t.index(['bulk_id'], 'payments_bulk_ix');
    t.index(['state'], 'payments_state_ix');
  });

  await knex.schema.createTable('baskets', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    t.string('bank_basket_id', 100).nullable();
    t.string('idempotency_key', ID).notNullable();
    t.text('sca_link').nullable();
    t.string('sca_link_expires_at', INSTANT).nullable();
    t.string('state', 20).notNullable();
    t.text('last_problem').nullable();
    leaseColumns(t);
    timestamps(t);
    t.unique(['idempotency_key'], { indexName: 'baskets_idempotency_key_uq' });
    t.index(['state'], 'baskets_state_ix');
  });

  await knex.schema.createTable('basket_items', (t) => {
    tableOptions(knex, t);
    t.string('basket_id', ID).notNullable().references('id').inTable('baskets');
    t.string('bulk_id', ID).notNullable().references('id').inTable('bulks');
    t.primary(['basket_id', 'bulk_id']);
    t.index(['bulk_id'], 'basket_items_bulk_ix');
  });

  await knex.schema.createTable('consents', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    t.string('bank_id', 100).notNullable();
    t.string('consent_id', 200).notNullable();
    t.string('channel', 20).nullable();
    t.string('status', 30).notNullable();
    t.string('expires_at', INSTANT).nullable();
    timestamps(t);
    t.unique(['consent_id'], { indexName: 'consents_consent_id_uq' });
    t.index(['company', 'bank_id'], 'consents_company_bank_ix');
  });

  await knex.schema.createTable('transitions', (t) => {
    tableOptions(knex, t);
    t.increments('id').primary();
    t.string('entity_type', 20).notNullable(); // payment_file | bulk | payment | basket
    t.string('entity_id', ID).notNullable();
    t.string('from_state', 20).nullable(); // null when the entity was created in to_state
    t.string('to_state', 20).notNullable();
    t.string('cause', 300).notNullable();
    t.string('at', INSTANT).notNullable();
    t.index(['entity_type', 'entity_id'], 'transitions_entity_ix');
  });
}
