// The electronic sequence number (camt ElctrncSeqNb) of each exported statement or notification
// period, per account and export format. It is given once — the next after the highest given —
// before the period's file is written, and kept: a re-write carries it again, and a period
// numbered but not yet recorded in `exports` (a crash between write and record) is the period the
// next run must write again, exactly as it was. Until now the number was derived from the count of
// earlier-dated periods, which repeated a number when a day was exported out of order.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';
import { addTo } from '../../domain/group.js';

/** The export formats of account statements and notifications (not payment status files). */
const PERIOD_FORMATS = ['camt.053.%', 'camt.054.%', 'csv-statement'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('electronic_sequence_numbers', (t) => {
    tableOptions(knex, t);
    t.string('account_id', 100).notNullable();
    t.string('format', 40).notNullable();
    t.string('period', 40).notNullable();
    t.integer('number').notNullable();
    t.string('assigned_at', INSTANT).notNullable();
    t.primary(['account_id', 'format', 'period']);
    // Two exports at once cannot both take the next number: the second insert fails and retries.
    t.unique(['account_id', 'format', 'number'], { indexName: 'electronic_sequence_numbers_uq' });
  });
  await backfill(knex);
}

/**
 * Periods delivered before this migration keep the number a re-export gave them until now: their
 * rank by first day among the account's periods of the format (ties, which the old count gave
 * the same number, in period order so each number stays unique).
 */
async function backfill(knex: Knex): Promise<void> {
  const rows = (await knex('exports')
    .distinct('subject_id', 'format', 'period')
    .where((w) => {
      for (const format of PERIOD_FORMATS) void w.orWhere('format', 'like', format);
    })) as { subject_id: string; format: string; period: string }[];
  const byAccountFormat = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.subject_id}\u0000${row.format}`;
    addTo(byAccountFormat, key, row);
  }
  const assignedAt = new Date().toISOString();
  const numbered: Record<string, unknown>[] = [];
  for (const periods of byAccountFormat.values()) {
    periods.sort((a, b) => (a.period < b.period ? -1 : a.period > b.period ? 1 : 0));
    periods.forEach((p, i) =>
      numbered.push({
        account_id: p.subject_id,
        format: p.format,
        period: p.period,
        number: i + 1,
        assigned_at: assignedAt,
      }),
    );
  }
  if (numbered.length > 0) await knex.batchInsert('electronic_sequence_numbers', numbered, 200);
}
