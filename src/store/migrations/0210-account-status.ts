// The bank's status of each account (spec §3.3: only `enabled` accounts serve payments and
// data), kept beside the account list so `banking.account.status.updated` events and the
// fetch's reads say which accounts are usable. `account_status_at` is when the bank said so: an
// event that arrives after a newer read changes nothing.
import type { Knex } from 'knex';
import { INSTANT } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.string('account_status', 30).nullable();
    t.string('account_status_at', INSTANT).nullable();
  });
}
