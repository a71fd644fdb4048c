// Who dropped a payment file into the inbox: the owner of the file as the inbox's server reports
// it (the SFTP account that uploaded it, or the local user), so that an approver reads who put a
// payment in front of them (issue #48). Files picked up before this migration have none.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (table) => {
    table.string('dropped_by', 100).nullable();
  });
}
