// Two nightly writes that went through every row of the bureau, and under MariaDB's REPEATABLE
// READ locked every row they passed:
// - a fetch's account status into the account directory (src/store/account-status.ts) finds its
//   rows by the bank's account id, which bank_accounts' key (company, account_id) cannot serve:
//   each fetch read every company's accounts and held them until its transaction ended, so the
//   fetches of other instances waited on it (at 1,000 companies 3,000 rows, for each of 3,000
//   accounts a night);
// - the status job's purge of expired leases (src/store/leases.ts) finds them by expires_at: it
//   read every lease of every company, once for each company a night, and locked the leases
//   every instance's claims write.
// test/store/bureau-bounded-writes.test.ts holds both to their own rows.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('bank_accounts', (t) => {
    t.index(['account_id'], 'bank_accounts_account_ix');
  });
  await knex.schema.alterTable('leases', (t) => {
    t.index(['expires_at'], 'leases_expires_ix');
  });
}
