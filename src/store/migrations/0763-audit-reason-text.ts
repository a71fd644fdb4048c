// An audit entry's sentence as recorded text (issue #53): when settle itself says why (a load of
// the payment controls, a sign-in lockout, refused console actions counted in a minute), the
// catalogue key and values of that sentence are kept as JSON beside the English `reason`, so the
// console's audit trail reads it in the reader's language (docs/i18n.md, "Recorded text"). A
// person's own reason has none. The column is part of an entry's hash when it is set
// (src/store/audit-trail.ts), so entries written before it keep their hashes.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_trail', (table) => {
    table.text('reason_text').nullable();
  });
}
