// A rejected payment file dropped again is validated anew (the bank side may have been fixed,
// e.g. the debtor account enabled since): its new record supersedes the rejected one, which stays
// in history. The ledger therefore allows the same bytes more than once per company, one record
// per attempt, and still refuses two records of the same attempt: two pickups that race on a
// re-drop cannot both store it. Whether a re-drop is new work is the ledger's decision
// (src/store/file-ledger.ts): only a rejected latest record may be superseded.
import type { Knex } from 'knex';
import { ID } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (t) => {
    t.integer('attempt').notNullable().defaultTo(1);
    t.string('superseded_by', ID).nullable();
  });
  await knex.schema.alterTable('payment_files', (t) => {
    t.dropUnique(['company', 'sha256'], 'payment_files_company_sha256_uq');
    t.unique(['company', 'sha256', 'attempt'], { indexName: 'payment_files_company_sha256_attempt_uq' });
  });
}
