// The state counters (src/store/state-counts.ts) against a count of the rows themselves: every
// (kind, company, state) whose counter differs from the rows in that state, with both numbers.
// Empty when the counters hold.
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
  for (const [key, { counted, rows }] of Object.entries(drift)) if (counted === rows) delete drift[key];
  return drift;
}
