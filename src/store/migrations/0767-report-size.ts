// A report's size in bytes of UTF-8, recorded with it (src/store/reports.ts), so the console
// sends a report streamed from its parts with its Content-Length: a browser then shows how much
// of a tens-of-MB reconciliation CSV has come and how much is left, and a download cut short
// is known to be short. Null on the reports recorded before: they are sent as before, chunked
// (counting them would read every part of every report during the upgrade).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('reports', (t) => {
    t.bigInteger('size_bytes').nullable();
  });
}
