// Who moved an entity: the path a transition came through (poll, event, operator, …), beside its
// free-text cause, so a question like "what did the webhook change?" is one query.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transitions', (table) => {
    table.string('source', 16).nullable();
  });
}
