// The console's sign-in limit as one atomic step in the database (src/store/sign-in-failures.ts):
// a guard row per user name and per client address, locked while an attempt is counted and
// reserved, so concurrent attempts (of one instance or several) are counted one after another;
// and the sign-in form tokens already used, so each form is sent once. A token is kept as its
// SHA-256, only for as long as its form could still be sent.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_guards', (t) => {
    tableOptions(knex, t);
    // `user:<name>` or `address:<ip>`.
    t.string('guard_key', 80).primary();
    t.string('touched_at', INSTANT).notNullable();
  });
  await knex.schema.createTable('sign_in_form_tokens', (t) => {
    tableOptions(knex, t);
    t.string('token_sha256', 64).primary();
    t.string('used_at', INSTANT).notNullable();
    t.index(['used_at'], 'sign_in_form_tokens_used_ix');
  });
}
