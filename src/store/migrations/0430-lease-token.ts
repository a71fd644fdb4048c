// A token per claim on the claimable tables (src/store/claim.ts): a claimer marks the rows its
// conditional update took with a fresh token and reads back exactly those, so it never
// mistakes rows it held from an earlier claim, or rows of a concurrent claim under the same
// holder name, for what this claim took.
import type { Knex } from 'knex';
import { ID } from './schema-helpers.js';

const TABLES = ['bulks', 'payment_files', 'baskets'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.string('lease_token', ID).nullable();
      t.index(['lease_token'], `${table}_lease_token_ix`);
    });
  }
}
