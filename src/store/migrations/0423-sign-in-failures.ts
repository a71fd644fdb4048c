// Failed password sign-ins of the console, for its limit per user name and per client address
// (src/store/sign-in-failures.ts). The name as typed (clipped) and the address, never the
// password. Rows older than the window no longer count, and each new failure deletes those of
// its name and address, so the table holds only recent failures.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_in_failures', (t) => {
    tableOptions(knex, t);
    t.bigIncrements('id').primary();
    t.string('username', 64).notNullable();
    t.string('address', 64).notNullable();
    t.string('at', INSTANT).notNullable();
    t.index(['username', 'at'], 'sign_in_failures_user_ix');
    t.index(['address', 'at'], 'sign_in_failures_address_ix');
  });
}
