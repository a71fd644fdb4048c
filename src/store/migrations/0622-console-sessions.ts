// Console sessions, kept server-side so they can be ended (src/store/console-sessions.ts): the
// cookie carries a random session id, and this table says whether it still counts. Rows are
// keyed by the id's SHA-256 (a copy of the table opens no session), with the login and person
// it belongs to (to end every session of someone), a fingerprint of the password hash it was
// opened with (a changed password ends it), its expiry and when it was ended.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('console_sessions', (t) => {
    tableOptions(knex, t);
    t.string('id_sha256', 64).primary();
    t.string('login', 300).notNullable();
    t.string('person', 320).notNullable();
    t.string('credential', 64).nullable();
    t.string('created_at', INSTANT).notNullable();
    t.string('expires_at', INSTANT).notNullable();
    t.string('revoked_at', INSTANT).nullable();
    t.index(['person'], 'console_sessions_person_ix');
    t.index(['login'], 'console_sessions_login_ix');
    t.index(['expires_at'], 'console_sessions_expires_ix');
  });
}
