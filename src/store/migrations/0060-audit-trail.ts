// The audit trail of every manual decision (acknowledging a finding, confirming or rejecting a
// proposal, resolving an unknown bulk, cancelling, releasing a held duplicate): append-only,
// each entry carrying the hash of the one before it, so an edit or a deletion of history shows.
// A unique previous hash makes the chain a line: two writers cannot both extend the same entry.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_trail', (table) => {
    tableOptions(knex, table);
    table.bigIncrements('seq').primary();
    table.string('at', INSTANT).notNullable();
    table.string('actor', 200).notNullable();
    table.string('action', 64).notNullable();
    table.string('subject_type', 64).notNullable();
    table.string('subject_id', 255).notNullable();
    table.text('reason').nullable();
    table.string('origin', 200).notNullable();
    table.text('details_json').notNullable();
    table.string('prev_hash', 64).notNullable().unique();
    table.string('hash', 64).notNullable().unique();
    table.index(['subject_type', 'subject_id']);
  });
}
