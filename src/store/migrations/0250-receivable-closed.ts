// A receivable the ERP's next open-items file no longer lists is closed (paid or withdrawn in
// the ERP), not deleted: when and by which file, so a credit booked before still finds it and
// one booked after does not (docs/reconciliation.md, "Incoming payments").
import type { Knex } from 'knex';
import { INSTANT } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('receivables', (table) => {
    table.string('closed_at', INSTANT).nullable();
    table.string('closed_by_file', 64).nullable();
  });
}
