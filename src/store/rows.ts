// Reading and writing column values the same way on both dialects. SQLite connections run
// with better-sqlite3's safe integers, so every INTEGER comes back as a bigint; mysql2 runs
// with bigNumberStrings, so BIGINT comes back as a decimal string. Amounts are bound as decimal
// strings (exact in both engines) and read back through BigInt, never through a float.
import type { Knex } from 'knex';
import { isLocalDate, type LocalDate } from '../domain/local-date.js';
import { isRecordedText, type RecordedText } from '../domain/recorded-text.js';

export type Row = Record<string, unknown>;

/** An amount or other 64-bit integer column, exactly. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new TypeError(`expected an integer column value, got ${typeof value}`);
}

/** A count, position or line number: small by nature, so a JS number is safe. */
export function toInt(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'bigint' || (typeof value === 'string' && /^-?\d+$/.test(value))) {
    const n = BigInt(value);
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
      throw new RangeError(`${value} is too large for a count`);
    return Number(n);
  }
  throw new TypeError(`expected an integer column value, got ${typeof value}`);
}

export function toOptInt(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : toInt(value);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1';
}

export function toOptBool(value: unknown): boolean | undefined {
  return value === null || value === undefined ? undefined : toBool(value);
}

export function toStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value.toString();
  throw new TypeError(`expected a text column value, got ${typeof value}`);
}

export function toOptStr(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : toStr(value);
}

export function toLocalDate(value: unknown): LocalDate {
  const s = toStr(value);
  // The rows of one read mostly share a date (a file's lines, a bulk's): checked once, not a Date a row.
  if (s === lastDate) return lastDate;
  if (!isLocalDate(s)) throw new TypeError(`"${s}" is not a stored calendar date`);
  lastDate = s;
  return s;
}

/** The last stored date toLocalDate found to be a calendar date. */
let lastDate: LocalDate | undefined;

export function toOptLocalDate(value: unknown): LocalDate | undefined {
  return value === null || value === undefined ? undefined : toLocalDate(value);
}

/** Instants are stored as fixed-width ISO-8601 UTC text: sortable and comparable as strings. */
export function instant(date: Date): string {
  return date.toISOString();
}

export function toDate(value: unknown): Date {
  return new Date(toStr(value));
}

export function toOptDate(value: unknown): Date | undefined {
  return value === null || value === undefined ? undefined : toDate(value);
}

export function toJson<T = unknown>(value: unknown): T | undefined {
  return value === null || value === undefined ? undefined : (JSON.parse(toStr(value)) as T);
}

/**
 * A recorded sentence stored as JSON beside its English (findings.summary_text, held_payments.
 * evidence_text, audit_trail.reason_text, transitions.cause_text), or undefined for an old row
 * without one, and for JSON this version cannot read: the reader then falls back to the English.
 */
export function toOptRecordedText(value: unknown): RecordedText | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecordedText(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The value to bind for an amount column: a decimal string, exact in SQLite and MySQL. */
export function amountParam(minor: bigint): string {
  return minor.toString();
}

/** True when a write failed on a unique index or primary key (both dialects). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Ids one statement binds where many lines move or are read together: a bulk's 1,000 lines fit in
 * one UPDATE and one INSERT (both engines take that many parameters).
 */
export const IDS_PER_STATEMENT = 4000;

/** Splits a list for `WHERE … IN (…)`: both engines cap the number of bound parameters. */
export function chunks<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The rows of one read for several subjects that each ask their own values (an account's days, a
 * subject's periods): the subjects and every value any of them asks go in one statement while
 * they are few (in parts when many, both engines cap the bound parameters), and a row comes back
 * only to the subject that asked its value — another's may lie beside it in the read.
 */
export async function readAsked(
  wanted: ReadonlyMap<string, readonly string[]>,
  read: (subjects: string[], values: string[]) => Promise<Row[]>,
  keyOf: (row: Row) => readonly [subject: string, value: string],
): Promise<Row[]> {
  const asked = new Map([...wanted].map(([id, values]) => [id, new Set(values)]));
  const values = [...new Set([...wanted.values()].flat())].sort();
  const out: Row[] = [];
  if (values.length === 0) return out;
  for (const subjects of chunks([...wanted.keys()], 100))
    for (const part of chunks(values, 400))
      for (const row of await read(subjects, part)) {
        const [subject, value] = keyOf(row);
        if (asked.get(subject)?.has(value) === true) out.push(row);
      }
  return out;
}

/** True on MySQL/MariaDB (row locks exist); SQLite has one writer and needs none. */
export function isMysqlKnex(knex: Knex | Knex.Transaction): boolean {
  return (knex.client as { dialect?: string }).dialect === 'mysql';
}

/**
 * `table` read through `index`, named to the engine (SQLite `INDEXED BY`, MariaDB `FORCE INDEX`),
 * for a read whose index the planner would not pick: its statistics cannot tell a column that
 * is rarely true (a present finding among years of absent ones) from one true half the time.
 * A named index that cannot serve the query is an error on SQLite, not a silent scan. `alias`
 * names the table in a query that joins it.
 */
export function throughIndex(knex: Knex | Knex.Transaction, table: string, index: string, alias?: string): Knex.Raw {
  const named = alias === undefined ? '??' : '?? as ??';
  const names = alias === undefined ? [table] : [table, alias];
  return knex.raw(isMysqlKnex(knex) ? `${named} force index (??)` : `${named} indexed by ??`, [...names, index]);
}

/** `SELECT … FOR UPDATE` on MySQL/MariaDB; a plain select on SQLite (knex would warn there). */
export function forUpdate<T extends Knex.QueryBuilder>(knex: Knex | Knex.Transaction, query: T): T {
  return isMysqlKnex(knex) ? (query.forUpdate() as T) : query;
}
