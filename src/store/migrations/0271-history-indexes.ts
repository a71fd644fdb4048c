// Queries of a period that must cost the same after five years of nights as after one
// (docs/performance.md, the history rows): reconciliation reads a company's sent lines by
// execution date, which without this index meant every line the company ever sent.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.index(['company', 'execution_date'], 'payments_company_execution_ix');
  });
}
