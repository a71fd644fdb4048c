// The nightly final camt.029 answers (src/store/cancellation-answers.ts) ask for a company's
// requests answered "pending" that have no final answer yet. They were found among every
// cancellation the company ever ended, through (company, outcome); through (company,
// erp_final_at, erp_pending_at) the read is the requests still owed an answer.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cancellations', (t) => {
    t.index(['company', 'erp_final_at', 'erp_pending_at'], 'cancellations_company_owed_ix');
  });
}
