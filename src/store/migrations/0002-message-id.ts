// The pain.001 GrpHdr/MsgId of a picked-up file: pain.002 status reports quote it back as
// OrgnlMsgId, so the ERP can match the report to the message it sent.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_files', (table) => {
    table.string('message_id', 35).nullable();
  });
}
