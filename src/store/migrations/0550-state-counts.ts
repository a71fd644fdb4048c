// Rows per state of payment lines, payment files and bulks, per company (src/store/state-counts.ts):
// /metrics reads these few rows instead of counting every line the bureau ever paid at each
// scrape. Filled here from a count of the rows; kept from then on by every change that creates,
// moves or purges them.
import type { Knex } from 'knex';
import { tableOptions } from './schema-helpers.js';

const COUNTED = { payment: 'payments', payment_file: 'payment_files', bulk: 'bulks' } as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('state_counts', (t) => {
    tableOptions(knex, t);
    t.string('kind', 20).notNullable();
    t.string('company', 32).notNullable();
    t.string('state', 32).notNullable();
    t.bigInteger('n').notNullable();
    t.primary(['kind', 'company', 'state']);
  });
  for (const [kind, table] of Object.entries(COUNTED))
    await knex
      .insert(
        knex(table)
          .select(knex.raw('? as kind', [kind]), 'company', 'state', knex.raw('count(*) as n'))
          .groupBy('company', 'state'),
      )
      .into(knex.raw('?? (kind, company, state, n)', ['state_counts']));
}
