// The console's Today page (src/store/today-views.ts) pages each of its lists per company by
// keyset: every list's WHERE and ORDER BY are the leading columns of one of these indexes, so
// a page is one index range however many rejected files, bulks or findings the install holds.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (t) => {
    t.index(['company', 'state', 'received_at', 'id'], 'payment_files_today_ix');
  });
  // Unknown bulks are read through bulks_console_state_ix (0410), which the operator's page shares.
  await knex.schema.alterTable('findings', (t) => {
    t.index(['company', 'present', 'decision', 'first_seen_at', 'id'], 'findings_today_ix');
  });
  await knex.schema.alterTable('consents', (t) => {
    t.index(['company', 'expires_at', 'bank_id'], 'consents_today_ix');
  });
  await knex.schema.alterTable('baskets', (t) => {
    t.index(['company', 'state', 'sca_link_expires_at', 'id'], 'baskets_today_link_ix');
  });
  // statement_days has no company: the gaps of a company are read account by account, each
  // account's broken days one range of this index.
  await knex.schema.alterTable('statement_days', (t) => {
    t.index(['account_id', 'continuity', 'day'], 'statement_days_today_ix');
  });
}
