// The bureau's board (src/store/board-views.ts) counts, for every company at once, the open
// findings of the latest run and the baskets waiting for approvers. Grouped by company, each is
// then one range of a covering index — the open findings alone, the waiting baskets alone —
// not a walk of every finding or basket the install has kept (the Today indexes of 0420 lead
// with the company, which serves one company's list, not every company's count).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.index(['present', 'decision', 'company'], 'findings_board_ix');
  });
  await knex.schema.alterTable('baskets', (t) => {
    t.index(['state', 'company', 'sca_link_expires_at'], 'baskets_board_ix');
  });
}
