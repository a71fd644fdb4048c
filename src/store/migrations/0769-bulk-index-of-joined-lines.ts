// On SQLite the index of payments by bulk keeps only the lines in a bulk (a partial index,
// `where bulk_id is not null`). Every line is picked up in no bulk, and the whole index kept an
// entry for each under NULL that no query reads: lines in no bulk are found by their file or their
// state, never by `bulk_id is null`. So each line's join took an entry out from under NULL and put
// one in under its bulk; now it only puts one in, and pickup writes none (decision 0015, "The index
// of the lines in a bulk"). A query by `bulk_id = ?` or `bulk_id in (…)` reads the partial index
// as it read the whole one: the comparison implies `bulk_id is not null`. MariaDB has no partial
// index: its index stays whole.
import type { Knex } from 'knex';
import { isMysqlKnex } from '../rows.js';

export async function up(knex: Knex): Promise<void> {
  if (isMysqlKnex(knex)) return;
  await knex.raw('drop index payments_bulk_ix');
  await knex.raw('create index payments_bulk_ix on payments (bulk_id) where bulk_id is not null');
}
