// Checkpoints of the audit trail's verification: each says "the chain from the start up to entry
// `seq` held, and that entry's hash was `hash`", recorded as a verification walks. The console
// verifies from the last one instead of walking every entry on each view; a full walk from the
// start ignores them, so a checkpoint never hides a change from it.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_checkpoints', (t) => {
    tableOptions(knex, t);
    t.bigInteger('seq').primary();
    t.string('hash', 64).notNullable();
    /** How many entries the chain held up to and including `seq`. */
    t.integer('entries').notNullable();
    t.string('verified_at', INSTANT).notNullable();
  });
}
