// A line's creditor as the ERP identifies it (issue #51, the changed-account control): its
// organisation number (pain.001 Cdtr/Id/OrgId/Othr/Id, or a CSV profile's `creditorOrgId` column)
// with its scheme if the file names one (Othr/SchmeNm), and the ERP's own creditor id (a CSV profile's `creditorId`). Kept, never sent. The control's
// one grouped history read per file groups by them too. Lines accepted before this have none: they
// are known by name only.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (table) => {
    table.string('creditor_org_id', 35).nullable();
    table.string('creditor_org_scheme', 35).nullable();
    table.string('creditor_id', 35).nullable();
  });
}
