// report_parts.report_id becomes a reference to reports, as every other child table's key is
// (0765 created the table without one): the database itself then refuses a part for a report that
// is not there. No cascade, like every reference of the schema: retention deletes a report's
// parts and then the report, in one transaction (src/store/retention.ts).
//
// Parts whose report is gone are deleted first. Such a part can be read by nothing (a report's
// content is read from its row's parts, src/store/reports.ts) and can come only from a report row
// deleted by hand; keeping it would make adding the reference fail on both engines, and the
// upgrade with it.
//
// SQLite cannot add a reference to a table: knex's `foreign` on SQLite rebuilds the table (creates
// it anew with the reference, copies the rows, drops the old one, renames; the primary key,
// whose leading column indexes the reference, is kept). MariaDB adds the constraint in place.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex('report_parts')
    .whereNotExists(knex('reports').select('id').whereRaw('reports.id = report_parts.report_id'))
    .delete();
  await knex.schema.alterTable('report_parts', (t) => {
    t.foreign('report_id', 'report_parts_report_fk').references('id').inTable('reports');
  });
}
