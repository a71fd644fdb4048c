// A hold that needs two releases (issue #51: a changed account, a limit) keeps the first one —
// who, as which person (src/domain/person.ts), when and why — until a different person releases
// it; only then is the line sent. Holds decided before this have none.
import type { Knex } from 'knex';
import { INSTANT } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('held_payments', (t) => {
    t.string('first_released_by', 200).nullable();
    t.string('first_released_person', 200).nullable();
    t.string('first_released_at', INSTANT).nullable();
    t.string('first_release_reason', 500).nullable();
  });
}
