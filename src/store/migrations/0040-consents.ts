// One row per company and bank: the consent settle knows for that pair, its status and expiry.
// Written by onboarding (`settle consents create`), refresh, the regular read of the bank's
// consents and the bank's consent events; read by the "consent near expiry" alert, the
// reconciliation report and the console. Keyed by (company, bank_id) so that several banks per
// company fit without another change. The table of 0001 had no writer and is replaced.
import type { Knex } from 'knex';
import { INSTANT, tableOptions, timestamps } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('consents');
  await knex.schema.createTable('consents', (t) => {
    tableOptions(knex, t);
    t.string('company', 100).notNullable();
    t.string('bank_id', 100).notNullable();
    t.string('consent_id', 200).notNullable();
    t.string('status', 30).notNullable();
    t.string('expires_at', INSTANT).nullable();
    // When the bank said so (event time or read time): an older event never overwrites a newer read.
    t.string('status_at', INSTANT).notNullable();
    t.string('source', 20).notNullable(); // onboarding | refresh | bank | event
    timestamps(t);
    t.primary(['company', 'bank_id']);
    t.index(['consent_id'], 'consents_consent_ix');
    t.index(['expires_at'], 'consents_expires_ix');
  });
}
