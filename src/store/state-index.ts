// Which payments the console's index by state holds. On SQLite it is a partial index (migration
// 0768): only the lines in a state a person acts on — waiting for a bulk, held, unknown at the
// bank, rejected or cancelled. The other states are those a bulk's lines pass through in
// thousands at each of the bank's answers (queued, ACCP, ACSP, ACSC …): an entry moved for every
// line at every answer cost the payment path about a sixth of its SQL, and those states are most
// of a company's lines, so a search for one finds its page by walking the lines by date, or, when
// few lines are in it, through their bulks (decision 0015, "The index of the states at rest").
// MariaDB has no partial index; its index holds every line, and the same queries read it.
import type { Knex } from 'knex';
import type { PaymentState } from '../domain/states.js';
import { isMysqlKnex, toInt, type Row } from './rows.js';
import { bulksWithLinesIn } from './state-counts.js';

/** The states the index holds. */
export const STATES_AT_REST: ReadonlySet<PaymentState> = new Set<PaymentState>([
  'accepted',
  'held',
  'unknown',
  'RJCT',
  'CANC',
]);

/**
 * The index's own condition, word for word: SQLite reads a partial index only for a query whose
 * WHERE states its condition, and a list of comparisons, unlike `in (…)`, costs a bulk's moves
 * nothing to test (migration 0768 writes the same text).
 */
export const AT_REST_CONDITION = `(${[...STATES_AT_REST].map((state) => `state = '${state}'`).join(' or ')})`;

/**
 * Lets a query of states the index holds read it: on SQLite, by stating the partial index's
 * condition; MariaDB's index is whole, and the condition would only be one more to test.
 */
export function throughStateIndex<Q extends Knex.QueryBuilder>(knex: Knex, q: Q): Q {
  return isMysqlKnex(knex) ? q : (q.whereRaw(AT_REST_CONDITION) as Q);
}

/** Whether every one of `states` is one the index holds. */
export function allAtRest(states: Iterable<PaymentState>): boolean {
  for (const state of states) if (!STATES_AT_REST.has(state)) return false;
  return true;
}

/**
 * How a search finds a company's lines in some states:
 * - `index`: every state is one the index holds; the query states its condition.
 * - `bulks`: few lines, in bulks of few lines in all (bulk_line_counts): those bulks' lines, read
 *   through their bulk index and sorted — a state of the bank's answers that a few old lines are
 *   still in would otherwise walk every newer line.
 * - `date`: many lines: the company's lines walked by date, where they are many.
 * - `none`: no line of the company is in any of them (the state counters).
 */
export type StateRoute = { via: 'index' } | { via: 'bulks'; bulkIds: string[] } | { via: 'date' } | { via: 'none' };

/** The most lines a search reads through their bulks (their bulks' lines in all). */
export const THROUGH_BULKS_MAX = 20_000;

export async function stateRoute(
  knex: Knex,
  company: string,
  states: readonly PaymentState[],
  throughBulksMax = THROUGH_BULKS_MAX,
): Promise<StateRoute> {
  if (allAtRest(states)) return { via: 'index' };
  const lines = await linesInStates(knex, company, states);
  if (lines === 0) return { via: 'none' };
  if (lines > throughBulksMax) return { via: 'date' };
  const bulks = await bulksWithLinesIn(knex, company, states);
  const inBulks = bulks.reduce((sum, b) => sum + b.n, 0);
  const read = bulks.reduce((sum, b) => sum + b.lines, 0);
  // Only when every such line is in a bulk (a line in no bulk has no count there).
  return inBulks === lines && read <= throughBulksMax
    ? { via: 'bulks', bulkIds: bulks.map((b) => b.bulkId) }
    : { via: 'date' };
}

/** How many of the company's payments are in any of `states`, as the state counters hold it. */
async function linesInStates(knex: Knex, company: string, states: readonly PaymentState[]): Promise<number> {
  const [row] = (await knex<Row>('state_counts')
    .sum({ n: 'n' })
    .where({ kind: 'payment', company })
    .whereIn('state', [...states])) as Row[];
  return toInt(row?.n ?? 0);
}
