// Four eyes compares people, not logins (src/domain/person.ts): a cancellation request keeps the
// person who asked (an explicit person id or a case-folded e-mail or name) beside the login it
// shows, because an OIDC login (`oidc:<issuer>#<sub>`) cannot be traced back to its address
// later. Older requests have none; they are compared by their login, case-folded.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cancellations', (t) => {
    t.string('requested_person', 320).nullable();
  });
}
