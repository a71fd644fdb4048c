// Every status of a bulk that went on at the bank (accepted for execution or beyond, or rejected)
// asks whether a cancellation request of that bulk is at the bank (jobs/cancel/cancel.ts,
// refuseLeftAtBank): by cancellations.bulk_id. On MariaDB the foreign key to bulks made that
// column an index; SQLite makes none for a foreign key, so each status read every request ever
// kept. The index is made where the engine has none.
import type { Knex } from 'knex';
import { isMysqlKnex } from '../rows.js';

export async function up(knex: Knex): Promise<void> {
  if (isMysqlKnex(knex)) return;
  await knex.schema.alterTable('cancellations', (t) => {
    t.index(['bulk_id'], 'cancellations_bulk_ix');
  });
}
