// The ISO 20022 category purpose of each payment line (pain.001 CtgyPurp/Cd, or a CSV column):
// SALA marks payroll, which approvers without the payroll role see as totals only. Lines
// accepted before this migration have none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.string('category_purpose', 4).nullable();
  });
}
