// A line is now held by payment controls too, not only as a likely duplicate (issue #51): the hold
// says which rules held it (comma-separated ids; 'duplicate' for every hold before this), the
// evidence in words, and how many releases by different people it needs before it is sent.
// A control hold has no earlier payment it looks like: its matched_payment_id is the line itself.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('held_payments', (t) => {
    t.string('rules', 200).notNullable().defaultTo('duplicate');
    t.string('evidence', 1000).nullable();
    t.integer('releases_needed').notNullable().defaultTo(1);
  });
}
