// The stand-ins settle writes for ids longer than their ISO 20022 field (issue #47: ids are never
// cut; src/domain/iso-identifier.ts). A stand-in is a function of the id, so the same id always
// gets the same one; this table maps it back, for a later file or a person looking one up.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('short_identifiers', (t) => {
    tableOptions(knex, t);
    /** STL- and hex digits of the full id's SHA-256 (at most 35 characters). */
    t.string('short_id', 35).primary();
    t.string('full_id', 1000).notNullable();
    /** When settle first wrote it. */
    t.string('created_at', INSTANT).notNullable();
  });
}
