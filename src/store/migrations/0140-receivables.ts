// Open receivables the ERP drops as files (docs/reconciliation.md, "Incoming payments"): each
// file is recorded by the SHA-256 of its bytes, so it is imported once, and each receivable is
// known by the company and its invoice number (a later file updates it).
import type { Knex } from 'knex';
import { amount, DATE, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('receivable_files', (table) => {
    tableOptions(knex, table);
    table.string('company', 32).notNullable();
    table.string('sha256', 64).notNullable();
    table.primary(['company', 'sha256']);
    table.string('file_name', 255).notNullable();
    table.integer('receivables').notNullable();
    table.string('received_at', INSTANT).notNullable();
  });
  await knex.schema.createTable('receivables', (table) => {
    tableOptions(knex, table);
    table.string('company', 32).notNullable();
    table.string('invoice', 64).notNullable();
    table.primary(['company', 'invoice']);
    table.string('customer', 140).notNullable();
    amount(table, 'amount_minor').notNullable();
    table.string('currency', 3).notNullable();
    /** KID or RF as banks exchange it (no spaces, upper case). */
    table.string('reference', 35).nullable();
    table.string('due_date', DATE).notNullable();
    /** The file (and its line) the receivable was last read from. */
    table.string('file_sha256', 64).notNullable();
    table.integer('line').notNullable();
    table.string('created_at', INSTANT).notNullable();
    table.string('updated_at', INSTANT).notNullable();
    table.index(['company', 'due_date']);
  });
}
