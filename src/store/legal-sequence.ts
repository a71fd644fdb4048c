// Legal sequence numbers of statements (camt.053 LglSeqNb): per account and calendar year,
// counting 1, 2, 3 … in the order days are first exported, one number per day (a day without
// entries too). A number, once given, stays with its day: a re-export carries it again, in
// every format. Assigning is one insert guarded by a unique key, so two exports at once can
// never take the same number: the loser reads the winner's row or takes the next number.
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { instant, isUniqueViolation, toInt, type Row } from './rows.js';

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
   * `assign` for many days of one account (an export of a month of history): the numbers the
   * days in [from, to] have and each year's highest are read once, so a new day costs one
   * insert instead of three round trips. The same unique key guards it: when another export
   * took the day or the number meanwhile, that day falls back to `assign`.
   */
  async assigner(accountId: string, from: LocalDate, to: LocalDate): Promise<(day: LocalDate) => Promise<number>> {
    const given = new Map<string, number>();
    for (const r of await this.db
      .knex<Row>('legal_sequence_numbers')
      .select('day', 'number')
      .where({ account_id: accountId })
      .whereBetween('day', [from, to]))
      given.set(String(r.day), toInt(r.number));
    const highest = new Map<number, number>();
    for (const r of await this.db
      .knex<Row>('legal_sequence_numbers')
      .select('year')
      .max({ number: 'number' })
      .where({ account_id: accountId })
      .groupBy('year'))
      highest.set(toInt(r.year), toInt(r.number));
    return async (day) => {
      const known = given.get(day);
      if (known !== undefined) return known;
      const year = Number(day.slice(0, 4));
      const number = (highest.get(year) ?? 0) + 1;
      try {
        await this.insert(accountId, day, year, number);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const taken = await this.assign(accountId, day);
        given.set(day, taken);
        highest.set(year, Math.max(highest.get(year) ?? 0, taken));
        return taken;
      }
      given.set(day, number);
      highest.set(year, number);
      return number;
    };
  }

  /** The day's number: the one it has, or the next of its year. */
  async assign(accountId: string, day: LocalDate): Promise<number> {
    const year = Number(day.slice(0, 4));
    for (let attempt = 0; ; attempt++) {
      const existing = await this.find(accountId, day);
      if (existing !== undefined) return existing;
      const max = await this.db
        .knex<Row>('legal_sequence_numbers')
        .max({ number: 'number' })
        .where({ account_id: accountId, year })
        .first();
      const number = (max?.number === null || max?.number === undefined ? 0 : toInt(max.number)) + 1;
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
