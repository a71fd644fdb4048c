// The SHA-256 of the file a period was numbered for, kept with its ElctrncSeqNb. A period is
// numbered before its file is written and recorded in `exports` after; a run that stops in
// between leaves a file that may have been delivered with no record of what it held. The next
// run writes the period again and, with this, can tell when the bank's data changed meanwhile:
// the file would differ from what the ERP may have imported, so it is withheld and reported
// instead of being replaced in silence. Periods numbered before this migration have none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('electronic_sequence_numbers', (t) => {
    t.string('sha256', 64).nullable();
  });
}
