// The state counters (src/store/state-counts.ts) against a count of the rows themselves: every
// (kind, company, state) whose counter differs from the rows in that state, and every bulk's count
// of its lines in a state that differs from its lines, with both numbers. Empty when they hold.
import type { Knex } from 'knex';
import type { Row } from '../../src/store/rows.js';
import { COUNTED_TABLES, type CountedKind } from '../../src/store/state-counts.js';

export async function stateCountDrift(knex: Knex): Promise<Record<string, { counted: number; rows: number }>> {
  const drift: Record<string, { counted: number; rows: number }> = {};
  const at = (key: string) => (drift[key] ??= { counted: 0, rows: 0 });
  const counters: Row[] = await knex<Row>('state_counts').select('kind', 'company', 'state', 'n');
  for (const r of counters) at(`${String(r.kind)}/${String(r.company)}/${String(r.state)}`).counted += Number(r.n);
  for (const [kind, table] of Object.entries(COUNTED_TABLES) as [CountedKind, string][]) {
    const rows: Row[] = await knex<Row>(table).select('company', 'state').count({ n: '*' }).groupBy('company', 'state');
    for (const r of rows) at(`${kind}/${String(r.company)}/${String(r.state)}`).rows += Number(r.n);
  }
  // A bulk's lines per state (bulk_line_counts), against its lines: `bulk_line/<company>/<bulk>/<state>`.
  const lines: Row[] = await knex<Row>('bulk_line_counts').select('company', 'bulk_id', 'state', 'n');
  for (const r of lines)
    at(`bulk_line/${String(r.company)}/${String(r.bulk_id)}/${String(r.state)}`).counted += Number(r.n);
  const inBulks: Row[] = await knex<Row>('payments')
    .select('company', 'bulk_id', 'state')
    .count({ n: '*' })
    .whereNotNull('bulk_id')
    .groupBy('company', 'bulk_id', 'state');
  for (const r of inBulks)
    at(`bulk_line/${String(r.company)}/${String(r.bulk_id)}/${String(r.state)}`).rows += Number(r.n);
  for (const [key, { counted, rows }] of Object.entries(drift)) if (counted === rows) delete drift[key];
  return drift;
}
