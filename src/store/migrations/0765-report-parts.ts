// A report's content in parts (src/store/reports.ts): the reconcile job's CSV of a big period
// was one row's MEDIUMTEXT and passed MariaDB's max_allowed_packet (16 MB by default) at about
// 42,000 findings, so the night's job failed after writing its files. Each part is at most 1 MB
// of UTF-8, so a report of any size is recorded without the operator raising the server's limit.
// `reports.parts` counts a report's parts; it is null on the reports recorded before this
// migration, whose content stays in `reports.content` and is read from there (nothing moves, so
// the migration is quick however many reports there are).
import type { Knex } from 'knex';
import { bigText, ID, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('report_parts', (t) => {
    tableOptions(knex, t);
    t.string('report_id', ID).notNullable();
    /** 0, 1, 2, …: the content is the parts joined in this order. */
    t.integer('part').notNullable();
    bigText(t, 'content').notNullable();
    t.primary(['report_id', 'part']);
  });
  await knex.schema.alterTable('reports', (t) => {
    t.integer('parts').nullable();
  });
}
