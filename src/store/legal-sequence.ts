// Legal sequence numbers of statements (camt.053 LglSeqNb): per account and calendar year,
// counting 1, 2, 3 … in the order days are first exported, one number per day (a day without
// entries too). A number, once given, stays with its day: a re-export carries it again, in
// every format. Assigning is one insert guarded by a unique key, so two exports at once can
// never take the same number: the loser reads the winner's row or takes the next number.
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { insertAll } from './insert-all.js';
import { chunks, instant, isUniqueViolation, readAsked, toInt, toLocalDate, toStr, type Row } from './rows.js';

export class LegalSequenceRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The number of the account's day, if one was given. */
  async find(accountId: string, day: LocalDate): Promise<number | undefined> {
    const row = await this.db
      .knex<Row>('legal_sequence_numbers')
      .select('number')
      .where({ account_id: accountId, day })
      .first();
    return row === undefined ? undefined : toInt(row.number);
  }

  /**
   * The numbers of those of each account's days that were given one: one read for several
   * accounts while they are few (an export reads a company's accounts together; their days are
   * mostly the same).
   */
  async findAllOf(wanted: ReadonlyMap<string, readonly LocalDate[]>): Promise<Map<string, Map<LocalDate, number>>> {
    const out = new Map<string, Map<LocalDate, number>>([...wanted.keys()].map((id) => [id, new Map()]));
    const rows = await readAsked(
      wanted,
      (accounts, days) =>
        this.db
          .knex<Row>('legal_sequence_numbers')
          .select('account_id', 'day', 'number')
          .whereIn('account_id', accounts)
          .whereIn('day', days),
      (r) => [toStr(r.account_id), toLocalDate(r.day)],
    );
    for (const r of rows) out.get(toStr(r.account_id))?.set(toLocalDate(r.day), toInt(r.number));
    return out;
  }

  /**
   * The numbers of many days of several accounts at once, each the one it has or the next of its
   * account's year, in day order (an export numbers a company's accounts together, a month of
   * history at a time): `known`, an account's numbers the caller read already, else they are
   * read here; each year's highest of every account in one read, the new numbers of all in one
   * insert, so a company's month costs three round trips and one commit. When the insert fails
   * on the unique key (another export numbered one of these days, or took one of the numbers,
   * meanwhile), nothing of it is kept and each new day falls back to `assign`.
   */
  async assignAllOf(
    wanted: ReadonlyMap<string, { days: readonly LocalDate[]; known?: ReadonlyMap<LocalDate, number> }>,
  ): Promise<Map<string, Map<LocalDate, number>>> {
    const out = new Map<string, Map<LocalDate, number>>();
    const asked = [...wanted].filter(([, w]) => w.days.length > 0);
    for (const [id] of wanted) out.set(id, new Map());
    if (asked.length === 0) return out;
    // `known`: the numbers the caller read for these days (and more) already; the days it lacks
    // have none, or a concurrent writer gave them one, which the insert's unique key then finds.
    const unknown = new Map(asked.filter(([, w]) => w.known === undefined).map(([id, w]) => [id, w.days]));
    const found = unknown.size === 0 ? new Map<string, Map<LocalDate, number>>() : await this.findAllOf(unknown);
    for (const [id, w] of asked)
      out.set(id, w.known === undefined ? (found.get(id) ?? new Map<LocalDate, number>()) : pick(w.known, w.days));
    const highest = await this.highestOfAll(
      asked.map(([id]) => id),
      asked.flatMap(([, w]) => w.days.map((day) => Number(day.slice(0, 4)))),
    );
    const assignedAt = instant(this.clock.now());
    const rows: Row[] = [];
    for (const [id, w] of asked) {
      const numbers = out.get(id)!;
      for (const day of [...new Set(w.days)].sort()) {
        if (numbers.has(day)) continue;
        const key = `${id}\n${day.slice(0, 4)}`;
        const number = (highest.get(key) ?? 0) + 1;
        highest.set(key, number);
        rows.push({ account_id: id, day, year: Number(day.slice(0, 4)), number, assigned_at: assignedAt });
      }
    }
    try {
      await insertAll(this.db, 'legal_sequence_numbers', rows);
      for (const r of rows) out.get(r.account_id as string)!.set(r.day as LocalDate, r.number as number);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      for (const r of rows) {
        const id = r.account_id as string;
        out.get(id)!.set(r.day as LocalDate, await this.assign(id, r.day as LocalDate));
      }
    }
    return out;
  }

  /**
   * The highest number of each account's years, keyed "account\nyear" (absent before its first):
   * one grouped read off the unique key, not of every number the accounts were given.
   */
  private async highestOfAll(accountIds: readonly string[], years: readonly number[]): Promise<Map<string, number>> {
    const highest = new Map<string, number>();
    for (const part of chunks(accountIds))
      for (const r of await this.db
        .knex<Row>('legal_sequence_numbers')
        .select('account_id', 'year')
        .max({ number: 'number' })
        .whereIn('account_id', part)
        .whereIn('year', [...new Set(years)])
        .groupBy('account_id', 'year'))
        highest.set(`${toStr(r.account_id)}\n${toInt(r.year)}`, toInt(r.number));
    return highest;
  }

  /** The highest number of the account's year (0 before its first). */
  private async highestOf(accountId: string, year: number): Promise<number> {
    const max = await this.db
      .knex<Row>('legal_sequence_numbers')
      .max({ number: 'number' })
      .where({ account_id: accountId, year })
      .first();
    return max?.number === null || max?.number === undefined ? 0 : toInt(max.number);
  }

  /** The day's number: the one it has, or the next of its year. */
  async assign(accountId: string, day: LocalDate): Promise<number> {
    const year = Number(day.slice(0, 4));
    for (let attempt = 0; ; attempt++) {
      const existing = await this.find(accountId, day);
      if (existing !== undefined) return existing;
      const number = (await this.highestOf(accountId, year)) + 1;
      try {
        await this.insert(accountId, day, year, number);
        return number;
      } catch (error) {
        // Another export took this day or this number first: look again.
        if (!isUniqueViolation(error) || attempt >= 20) throw error;
      }
    }
  }

  private async insert(accountId: string, day: LocalDate, year: number, number: number): Promise<void> {
    await this.db
      .knex('legal_sequence_numbers')
      .insert({ account_id: accountId, day, year, number, assigned_at: instant(this.clock.now()) });
  }
}

/** The numbers of these days among `known`. */
function pick(known: ReadonlyMap<LocalDate, number>, days: readonly LocalDate[]): Map<LocalDate, number> {
  const out = new Map<LocalDate, number>();
  for (const day of days) {
    const n = known.get(day);
    if (n !== undefined) out.set(day, n);
  }
  return out;
}
