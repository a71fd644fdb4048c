// Migration 0001, statement and operations side: accounts, transactions, balances, statement
// continuity, exports, webhook dedupe, named leases, job runs and alert dedupe.
import type { Knex } from 'knex';
import { amount, bigText, DATE, ID, INSTANT, tableOptions, timestamps } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    tableOptions(knex, t);
    t.string('id', 100).primary(); // the bank's account resource id
    t.string('company', 100).notNullable();
    t.string('iban', 34).nullable();
    t.string('bban', 34).nullable();
    t.string('currency', 3).nullable();
    t.string('name', 140).nullable();
    t.string('transactions_fetched_to', INSTANT).nullable(); // incremental fetch watermark
    t.string('last_fetched_at', INSTANT).nullable();
    timestamps(t);
    t.index(['company'], 'accounts_company_ix');
    t.index(['iban'], 'accounts_iban_ix');
  });

  await knex.schema.createTable('transactions', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('account_id', 100).notNullable().references('id').inTable('accounts');
    t.string('bank_transaction_id', 100).notNullable();
    t.string('entry_reference', 100).nullable();
    t.string('booking_date', DATE).nullable();
    t.string('value_date', DATE).nullable();
    amount(t, 'amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.string('end_to_end_id', 64).nullable();
    t.string('counterparty_name', 140).nullable();
    t.string('counterparty_iban', 34).nullable();
    t.text('remittance').nullable();
    t.string('status', 10).notNullable(); // booked | pending
    bigText(t, 'raw_json').nullable();
    t.string('first_seen_at', INSTANT).notNullable();
    t.string('updated_at', INSTANT).notNullable();
    t.unique(['account_id', 'bank_transaction_id'], { indexName: 'transactions_account_tx_uq' });
    t.index(['account_id', 'booking_date'], 'transactions_account_booking_ix');
    t.index(['end_to_end_id'], 'transactions_e2e_ix');
  });

  await knex.schema.createTable('balances', (t) => {
    tableOptions(knex, t);
    t.string('account_id', 100).notNullable().references('id').inTable('accounts');
    t.string('balance_type', 30).notNullable();
    t.string('reference_date', DATE).notNullable();
    amount(t, 'amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.string('last_change_at', INSTANT).nullable();
    t.string('fetched_at', INSTANT).notNullable();
    t.primary(['account_id', 'balance_type', 'reference_date']);
  });

  await knex.schema.createTable('statement_days', (t) => {
    tableOptions(knex, t);
    t.string('account_id', 100).notNullable().references('id').inTable('accounts');
    t.string('day', DATE).notNullable();
    t.string('currency', 3).notNullable();
    amount(t, 'opening_minor').nullable();
    amount(t, 'closing_minor').nullable();
    amount(t, 'booked_sum_minor').nullable();
    t.integer('entry_count').notNullable().defaultTo(0);
    t.string('continuity', 20).notNullable(); // ok | gap | mismatch | unchecked
    t.text('finding').nullable();
    t.string('checked_at', INSTANT).notNullable();
    t.primary(['account_id', 'day']);
  });

  await knex.schema.createTable('exports', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    t.string('format', 40).notNullable(); // camt.053.001.02 | csv-statement | pain.002.001.03 | csv-status …
    t.string('subject_id', 100).notNullable(); // account id, or payment file id for status files
    t.string('period', 40).notNullable(); // day (YYYY-MM-DD) or another stable key
    t.integer('version').notNullable().defaultTo(1);
    t.string('file_name', 255).notNullable();
    t.string('sha256', 64).nullable();
    t.integer('entry_count').notNullable().defaultTo(0);
    t.string('exported_at', INSTANT).notNullable();
    t.unique(['format', 'subject_id', 'period', 'version'], { indexName: 'exports_subject_period_uq' });
  });

  await knex.schema.createTable('webhook_events', (t) => {
    tableOptions(knex, t);
    t.string('event_id', 200).primary();
    t.string('type', 200).notNullable();
    t.string('source', 500).nullable();
    t.string('received_at', INSTANT).notNullable();
    t.string('processed_at', INSTANT).nullable();
    bigText(t, 'payload').nullable();
  });

  await knex.schema.createTable('leases', (t) => {
    tableOptions(knex, t);
    t.string('name', 200).primary();
    t.string('holder', 200).notNullable();
    t.string('acquired_at', INSTANT).notNullable();
    t.string('expires_at', INSTANT).notNullable();
  });

  await knex.schema.createTable('job_runs', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('job', 60).notNullable();
    t.string('run_id', 100).notNullable(); // groups the jobs of one nightly run
    t.string('holder', 200).nullable();
    t.string('started_at', INSTANT).notNullable();
    t.string('finished_at', INSTANT).nullable();
    t.string('outcome', 20).notNullable(); // running | ok | findings | failed
    t.text('summary_json').nullable();
    t.index(['job', 'started_at'], 'job_runs_job_started_ix');
    t.index(['run_id'], 'job_runs_run_ix');
  });

  await knex.schema.createTable('alerts_sent', (t) => {
    tableOptions(knex, t);
    t.string('finding_key', 255).primary();
    t.string('channel', 50).notNullable();
    t.string('sent_at', INSTANT).notNullable();
    t.text('detail').nullable();
  });
}
