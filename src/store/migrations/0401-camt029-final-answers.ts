// A camt.055 request the bank has not decided yet is answered PDCR (pending); once the request
// ends (the bank's CANC, or the payment left the bank instead), the ERP gets a second, final
// camt.029. These columns remember what that answer needs from the camt.055 (its file, the
// camt.029 version that answers it, the instruction id it quoted), that a pending answer went
// out, and when the final one was written, so it is written once.
import type { Knex } from 'knex';
import { INSTANT } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cancellations', (t) => {
    t.string('erp_file', 255).nullable();
    t.string('erp_answer_version', 10).nullable();
    t.string('erp_instruction_id', 35).nullable();
    t.string('erp_pending_at', INSTANT).nullable();
    t.string('erp_final_at', INSTANT).nullable();
  });
}
