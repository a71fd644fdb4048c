// The console's read models (src/store/console-views.ts) page every list by keyset: each list's
// WHERE and ORDER BY are the leading columns of one of these indexes, so a page is one index
// range scan however many rows the table holds. The trailing `id` breaks ties between rows
// with equal sort keys (same day, same amount), so a page boundary never loses or repeats a row.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (t) => {
    t.index(['company', 'received_at', 'id'], 'payment_files_console_ix');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['company', 'execution_date', 'id'], 'payments_console_date_ix');
    t.index(['company', 'state', 'execution_date', 'id'], 'payments_console_state_ix');
    t.index(['company', 'amount_minor', 'execution_date', 'id'], 'payments_console_amount_ix');
    t.index(['company', 'creditor_name', 'execution_date', 'id'], 'payments_console_creditor_ix');
    t.index(['company', 'creditor_iban', 'execution_date', 'id'], 'payments_console_creditor_iban_ix');
    t.index(['company', 'creditor_reference', 'execution_date', 'id'], 'payments_console_reference_ix');
  });
  await knex.schema.alterTable('findings', (t) => {
    t.index(['company', 'present', 'first_seen_at', 'id'], 'findings_console_ix');
    t.index(['company', 'first_seen_at', 'id'], 'findings_console_all_ix');
  });
  await knex.schema.alterTable('baskets', (t) => {
    t.index(['company', 'state', 'id'], 'baskets_console_ix');
  });
  await knex.schema.alterTable('exports', (t) => {
    t.index(['subject_id', 'period'], 'exports_console_subject_ix');
  });
  await knex.schema.alterTable('accounts', (t) => {
    t.index(['company', 'id'], 'accounts_console_ix');
  });
}
