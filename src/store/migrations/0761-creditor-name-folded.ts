// The console's Payments page finds a creditor by the start of its name whatever its case, with
// æ, ø and å as letters of their own (src/domain/search-fold.ts). The name as the search compares
// it is kept beside the name (`creditor_name_folded`), folded in JavaScript on both engines so
// that SQLite and MariaDB hold the same text, and compared by code point (utf8mb4_bin on MariaDB,
// as SQLite's binary comparison). Its index replaces the one on the name as written: the search
// is scoped by company and pages by execution date and id, as before.
//
// The payments stored before it are folded here, one batch of the company's distinct creditor
// names at a time, each name's rows by one update through the old index: the work grows with the
// number of names, not of payments.
import type { Knex } from 'knex';
import { foldForSearch } from '../../domain/search-fold.js';
import { isMysql } from './schema-helpers.js';

/** Distinct (company, name) pairs read and updated per round. */
const BATCH = 500;
/** Lower case may lengthen a name (İ → i̇): room for that beyond the name's 140. */
const FOLDED = 280;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    const column = t.string('creditor_name_folded', FOLDED).nullable();
    if (isMysql(knex)) void column.collate('utf8mb4_bin');
  });
  await backfill(knex);
  await knex.schema.alterTable('payments', (t) => {
    t.index(['company', 'creditor_name_folded', 'execution_date', 'id'], 'payments_console_creditor_folded_ix');
  });
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['company', 'creditor_name', 'execution_date', 'id'], 'payments_console_creditor_ix');
  });
}

async function backfill(knex: Knex): Promise<void> {
  let after: { company: string; name: string } | undefined;
  for (;;) {
    const q = knex('payments')
      .distinct('company', 'creditor_name')
      .orderBy([{ column: 'company' }, { column: 'creditor_name' }])
      .limit(BATCH);
    if (after !== undefined) {
      const { company, name } = after;
      void q.where(
        (w) =>
          void w.where('company', '>', company).orWhere((same) => {
            void same.where('company', company).andWhere('creditor_name', '>', name);
          }),
      );
    }
    const rows = (await q) as { company: string; creditor_name: string }[];
    for (const r of rows)
      await knex('payments')
        .where({ company: r.company, creditor_name: r.creditor_name })
        .update({ creditor_name_folded: foldForSearch(r.creditor_name) });
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { company: last.company, name: last.creditor_name };
  }
}
