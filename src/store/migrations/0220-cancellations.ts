// Cancellation requests (a person on the command line, or the ERP's camt.055): one row per
// request with what it names, who asked and why, who confirmed it (four eyes), and how it ended.
// The lines it moves keep their own transition rows; this row is the request's record, like a
// held line's decision, and the audit trail holds the same decisions hash-chained.
import type { Knex } from 'knex';
import { ID, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('cancellations', (t) => {
    tableOptions(knex, t);
    t.string('id', ID).primary();
    t.string('company', 100).notNullable();
    // What the person or the ERP named (an end-to-end id, a bulk id, FILE:LINE, …), as given.
    t.string('ref', 200).notNullable();
    // The payment lines to cancel (JSON array of payment ids) and the bulk they were in, if any.
    t.text('payment_ids_json').notNullable();
    t.string('bulk_id', ID).nullable().references('id').inTable('bulks');
    t.string('reason', 500).notNullable();
    t.string('requested_by', 200).notNullable();
    t.string('requested_at', INSTANT).notNullable();
    // 'cli' or 'camt055'; for camt.055 the ERP's message and case ids (the camt.029 quotes them).
    t.string('channel', 10).notNullable();
    t.string('erp_message_id', 35).nullable();
    t.string('erp_case_id', 35).nullable();
    t.string('confirmed_by', 200).nullable();
    t.string('confirmed_at', INSTANT).nullable();
    // Set before the DELETE is sent: a crash after it is healed by reading the bulk's status.
    t.string('bank_requested_at', INSTANT).nullable();
    // null while open; 'withdrawn' (never sent), 'cancelled' (the bank confirmed), 'refused'.
    t.string('outcome', 10).nullable();
    t.string('outcome_at', INSTANT).nullable();
    t.string('outcome_detail', 500).nullable();
    // The bulk the other lines of a cancelled bulk were queued in again (with a new key).
    t.string('resent_bulk_id', ID).nullable().references('id').inTable('bulks');
    t.index(['company', 'outcome'], 'cancellations_company_outcome_ix');
  });
}
