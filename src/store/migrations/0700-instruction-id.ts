// The ERP's instruction id of a line (pain.001 PmtId/InstrId, or a CSV profile's `instructionId`
// column), kept so the status report (pain.002 OrgnlInstrId) and the statements (camt.053 and
// camt.054 Refs/InstrId) quote it back: some ERPs look their payments up by it first (issue #47).
// Lines accepted before this migration have none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.string('instruction_id', 35).nullable();
  });
}
