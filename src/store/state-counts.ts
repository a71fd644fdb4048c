// How many payments, payment files and bulks each company has in each state, kept beside the
// rows so that /metrics reads a few rows per company instead of counting every line the bureau
// ever paid at every scrape (a full walk of the payments' index, years of nights long).
//
// Every change of those rows' number per state adds its difference here, in the transaction that
// makes it: a row created (recordCreation, the intake of a file's lines), moved (the transition
// function) or purged (retention). The differences are gathered per transaction and written when
// its work is done, in one statement, its rows in one order: the counters are the last rows a transaction locks,
// so one waiting for a counter holds no lock the counter's holder will ask for (no new deadlock),
// and a company's counters are its own (instances working on other companies never wait on them).
// A rolled-back transaction rolls its differences back with it (a deadlock victim run again is a
// new transaction, gathering afresh). The repository contract's last case holds the counters
// against a count of the rows after its whole suite, on both engines; test/store/state-counts.test.ts
// what that cannot reach.
//
// A bulk's lines are also counted per state, by bulk (bulk_line_counts, migration 0768): the
// console's search for a state its index does not hold (src/store/state-index.ts) finds a few
// lines through their bulks. Those differences are gathered and written the same way, after the
// company's counters.
import type { Knex } from 'knex';
import { write } from './direct-sql.js';
import { forUpdate, isMysqlKnex, toInt, toStr, type Row } from './rows.js';

/** The kinds counted: the tables whose rows /metrics shows per state. */
export type CountedKind = 'payment' | 'payment_file' | 'bulk';
export const COUNTED_TABLES: Record<CountedKind, string> = {
  payment: 'payments',
  payment_file: 'payment_files',
  bulk: 'bulks',
};

const TABLE = 'state_counts';
const LINES_TABLE = 'bulk_line_counts';

/** Differences not yet written, by transaction: `kind\u0000company\u0000state` → rows. */
const pending = new WeakMap<Knex.Transaction, Map<string, number>>();
/** A bulk's lines' differences not yet written, by transaction: `bulk\u0000state` → company and rows. */
const pendingLines = new WeakMap<Knex.Transaction, Map<string, { company: string; n: number }>>();
/** Transactions that write their differences when their work is done (Database.transaction). */
const deferred = new WeakSet<Knex.Transaction>();

/** Adds `rows` (negative: fewer) to a company's count of a kind in a state, within `trx`. */
export function countRows(
  trx: Knex.Transaction,
  kind: CountedKind,
  company: string,
  state: string,
  rows: number,
): void {
  if (rows === 0) return;
  let diffs = pending.get(trx);
  if (diffs === undefined) pending.set(trx, (diffs = new Map<string, number>()));
  const key = `${kind}\u0000${company}\u0000${state}`;
  diffs.set(key, (diffs.get(key) ?? 0) + rows);
}

/** `rows` of a company's kind moved from one state to another. */
export function countMove(
  trx: Knex.Transaction,
  kind: CountedKind,
  company: string,
  { from, to, rows }: { from: string; to: string; rows: number },
): void {
  countRows(trx, kind, company, from, -rows);
  countRows(trx, kind, company, to, rows);
}

/** Adds `rows` (negative: fewer) to a bulk's count of its lines in a state, within `trx`. */
export function countBulkLines(
  trx: Knex.Transaction,
  bulkId: string,
  company: string,
  state: string,
  rows: number,
): void {
  if (rows === 0) return;
  let diffs = pendingLines.get(trx);
  if (diffs === undefined) pendingLines.set(trx, (diffs = new Map<string, { company: string; n: number }>()));
  const key = `${bulkId}\u0000${state}`;
  const diff = diffs.get(key);
  if (diff === undefined) diffs.set(key, { company, n: rows });
  else diff.n += rows;
}

/** `rows` of a bulk's lines moved from one state to another. */
export function countBulkLinesMove(
  trx: Knex.Transaction,
  bulkId: string,
  company: string,
  { from, to, rows }: { from: string; to: string; rows: number },
): void {
  countBulkLines(trx, bulkId, company, from, -rows);
  countBulkLines(trx, bulkId, company, to, rows);
}

/**
 * Moved payments, tallied by `bulk\u0000company\u0000state they leave` (`` for no bulk), moved to
 * `to`: in the bulk they are in, or out of it into `into` when the move puts them in a bulk.
 */
export function countBulkLineMoves(
  trx: Knex.Transaction,
  leaving: ReadonlyMap<string, number>,
  to: string,
  into: string | undefined,
): void {
  for (const [key, rows] of leaving) {
    const [bulkId, company, from] = key.split('\u0000') as [string, string, string];
    if (into !== undefined && into !== bulkId) {
      if (bulkId !== '') countBulkLines(trx, bulkId, company, from, -rows);
      countBulkLines(trx, into, company, to, rows);
    } else if (bulkId !== '') countBulkLinesMove(trx, bulkId, company, { from, to, rows });
  }
}

/**
 * Runs `fn` in `trx` and then writes the differences it gathered: how Database.transaction runs
 * every transaction. Where a change is made in a transaction opened some other way, its
 * differences are written at once, by `settleCounts`.
 */
export async function withStateCounts<T>(trx: Knex.Transaction, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  deferred.add(trx);
  const result = await fn(trx);
  await writeCounts(trx);
  return result;
}

/** Writes the differences now, unless the transaction writes them when its work is done. */
export async function settleCounts(trx: Knex.Transaction): Promise<void> {
  if (!deferred.has(trx)) await writeCounts(trx);
}

async function writeCounts(trx: Knex.Transaction): Promise<void> {
  await writeCompanyCounts(trx);
  await writeBulkLineCounts(trx);
}

async function writeCompanyCounts(trx: Knex.Transaction): Promise<void> {
  const diffs = pending.get(trx);
  pending.delete(trx);
  if (diffs === undefined) return;
  const rows = [...diffs.keys()]
    .sort()
    .filter((key) => diffs.get(key) !== 0)
    .map((key) => [...key.split('\u0000'), diffs.get(key)!]);
  await addToCounters(trx, TABLE, ['kind', 'company', 'state', 'n'], ['kind', 'company', 'state'], rows);
}

async function writeBulkLineCounts(trx: Knex.Transaction): Promise<void> {
  const diffs = pendingLines.get(trx);
  pendingLines.delete(trx);
  if (diffs === undefined) return;
  const rows = [...diffs.keys()]
    .sort()
    .filter((key) => diffs.get(key)!.n !== 0)
    .map((key) => [...key.split('\u0000'), diffs.get(key)!.company, diffs.get(key)!.n]);
  await addToCounters(trx, LINES_TABLE, ['bulk_id', 'state', 'company', 'n'], ['bulk_id', 'state'], rows);
}

/**
 * Adds each row's `n` to its counter (a new counter starts at it). One statement, its rows in one
 * order for every transaction (the engine locks them in the order given): no two transactions
 * wait on each other's counters.
 */
async function addToCounters(
  trx: Knex.Transaction,
  table: string,
  columns: readonly string[],
  key: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  if (rows.length === 0) return;
  const upsert = isMysqlKnex(trx)
    ? `on duplicate key update n = ${table}.n + values(n)`
    : `on conflict (${key.join(', ')}) do update set n = ${table}.n + excluded.n`;
  const row = `(${columns.map(() => '?').join(', ')})`;
  await write(
    trx,
    `insert into ${table} (${columns.join(', ')}) values ${rows.map(() => row).join(', ')} ${upsert}`,
    rows.flat(),
  );
}

/** Rows of a kind per state over every company, as the counters hold them (states with none left out). */
export async function countsByState(knex: Knex, kind: CountedKind): Promise<Map<string, number>> {
  const rows: Row[] = await knex(TABLE).select('state').sum({ n: 'n' }).where({ kind }).groupBy('state');
  return new Map(rows.map((r) => [toStr(r.state), toInt(r.n)] as const).filter(([, n]) => n !== 0));
}

/**
 * Sets a company's counters to a count of its rows, and returns the ones that were wrong
 * (`kind/state: counted → rows`). The purge job runs it for each company it purges: a change
 * made without its difference — an old instance still mid-run while a new one migrated, a hand
 * edit of the database — is corrected within a purge cycle. The company's counters are locked
 * first (and, on MariaDB, the gaps between them), so a change waiting to add its difference is
 * not in this count's snapshot and adds it after; the rows are read through their company.
 */
export async function recountCompany(trx: Knex.Transaction, company: string): Promise<string[]> {
  const kinds = Object.keys(COUNTED_TABLES) as CountedKind[];
  const held = await forUpdate(
    trx,
    trx<Row>(TABLE).select('kind', 'state', 'n').whereIn('kind', kinds).where({ company }),
  );
  const counted = new Map(held.map((r) => [`${toStr(r.kind)}/${toStr(r.state)}`, toInt(r.n)]));
  const rows = new Map<string, number>();
  for (const kind of kinds) {
    const states: Row[] = await trx<Row>(COUNTED_TABLES[kind])
      .select('state')
      .count({ n: '*' })
      .where({ company })
      .groupBy('state');
    for (const r of states) rows.set(`${kind}/${toStr(r.state)}`, toInt(r.n));
  }
  const wrong: string[] = [];
  for (const key of [...new Set([...counted.keys(), ...rows.keys()])].sort()) {
    const [had, has] = [counted.get(key) ?? 0, rows.get(key) ?? 0];
    if (had === has) continue;
    wrong.push(`${key}: ${had} → ${has}`);
    const [kind, state] = key.split('/') as [string, string];
    await trx(TABLE)
      .insert({ kind, company, state, n: has })
      .onConflict(['kind', 'company', 'state'])
      .merge({ n: has });
  }
  return [...wrong, ...(await recountBulkLines(trx, company))];
}

/** The same for the company's bulks' lines per state: `bulk_line/<bulk>/<state>: counted → rows`. */
async function recountBulkLines(trx: Knex.Transaction, company: string): Promise<string[]> {
  const held = await forUpdate(trx, trx<Row>(LINES_TABLE).select('bulk_id', 'state', 'n').where({ company }));
  const counted = new Map(held.map((r) => [`${toStr(r.bulk_id)}/${toStr(r.state)}`, toInt(r.n)]));
  const lines: Row[] = await trx<Row>(COUNTED_TABLES.payment)
    .select('bulk_id', 'state')
    .count({ n: '*' })
    .where({ company })
    .whereNotNull('bulk_id')
    .groupBy('bulk_id', 'state');
  const rows = new Map(lines.map((r) => [`${toStr(r.bulk_id)}/${toStr(r.state)}`, toInt(r.n)]));
  const wrong: string[] = [];
  for (const key of [...new Set([...counted.keys(), ...rows.keys()])].sort()) {
    const [had, has] = [counted.get(key) ?? 0, rows.get(key) ?? 0];
    if (had === has) continue;
    wrong.push(`bulk_line/${key}: ${had} → ${has}`);
    const [bulkId, state] = key.split('/') as [string, string];
    await trx(LINES_TABLE)
      .insert({ bulk_id: bulkId, state, company, n: has })
      .onConflict(['bulk_id', 'state'])
      .merge({ n: has });
  }
  return wrong;
}

/**
 * The company's bulks that hold lines in any of `states`: how many such lines each holds, and how
 * many lines in all (what reading the bulk through its index costs).
 */
export async function bulksWithLinesIn(
  knex: Knex,
  company: string,
  states: readonly string[],
): Promise<{ bulkId: string; n: number; lines: number }[]> {
  if (states.length === 0) return [];
  const rows: Row[] = await knex<Row>(`${LINES_TABLE} as c`)
    .join('bulks as b', 'b.id', 'c.bulk_id')
    .select('c.bulk_id')
    .sum({ n: 'c.n' })
    .max({ lines: 'b.line_count' })
    .where('c.company', company)
    .whereIn('c.state', [...states])
    .where('c.n', '>', 0)
    .groupBy('c.bulk_id');
  return rows.map((r) => ({ bulkId: toStr(r.bulk_id), n: toInt(r.n), lines: toInt(r.lines) }));
}

/**
 * Whether the bulk's counts hold a line in a state outside `states`: a few rows of the counts'
 * key, where reading the bulk's lines reads up to all of them.
 */
export async function bulkCountsLinesOutside(knex: Knex, bulkId: string, states: readonly string[]): Promise<boolean> {
  const row = (await knex<Row>(LINES_TABLE)
    .select('state')
    .where('bulk_id', bulkId)
    .whereNotIn('state', [...states])
    .where('n', '>', 0)
    .first()) as Row | undefined;
  return row !== undefined;
}
