// Reconciliation reads a company's receivables a credit may still pay every night: the open ones
// and those the ERP closed recently (src/store/receivables.ts). The company's years of closed
// receivables stay out of that read, and out of the import's closing of the open ones a new
// file no longer lists, through (company, closed_at).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receivables', (t) => {
    t.index(['company', 'closed_at'], 'receivables_company_closed_ix');
  });
}
