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
        await this.db.knex('legal_sequence_numbers').insert({
          account_id: accountId,
          day,
          year,
          number,
          assigned_at: instant(this.clock.now()),
        });
        return number;
      } catch (error) {
        // Another export took this day or this number first: look again.
        if (!isUniqueViolation(error) || attempt >= 20) throw error;
      }
    }
  }
}
