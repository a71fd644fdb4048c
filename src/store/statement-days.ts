// Statement continuity per account and day: opening and closing balance, the booked sum and
// whether the chain holds (yesterday's closing = today's opening, opening + booked = closing).
// The reconcile job computes the finding; this table keeps it for reports and alerts.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { Continuity } from '../domain/statement-day-continuity.js';
import { addDays, type LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { againOnDeadlock } from './deadlock.js';
import { lowerExportFloors } from './export-floors.js';
import { amountParam, chunks, instant, toBigInt, toInt, toLocalDate, toOptStr, toStr, type Row } from './rows.js';
import { addTo } from '../domain/group.js';

export interface StatementDay {
  accountId: string;
  day: LocalDate;
  currency: string;
  openingMinor?: bigint;
  closingMinor?: bigint;
  bookedSumMinor?: bigint;
  entryCount: number;
  continuity: Continuity;
  finding?: string;
}

/** The continuity verdicts of a day whose chain does not hold. */
const BROKEN: readonly Continuity[] = ['gap', 'mismatch'];

export class StatementDayRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Stores (or replaces) the check of one account day. */
  async record(day: StatementDay): Promise<void> {
    await this.recordMany([day]);
  }

  /**
   * Stores (or replaces) the checks of several days: a few round trips, not one a day. The
   * export floors of their accounts go down to the first day written, before the write (a stop
   * half-way leaves them low) and after it (an export that read in between cannot raise them
   * past the new figures): export-floors.ts.
   */
  async recordMany(days: readonly StatementDay[]): Promise<void> {
    const firsts = new Map<string, LocalDate>();
    for (const { accountId, day } of days) {
      const first = firsts.get(accountId);
      if (first === undefined || day < first) firsts.set(accountId, day);
    }
    // Accounts whose first day written is the same (a company's, fetched together) share a write.
    const byFirst = new Map<LocalDate, string[]>();
    for (const [accountId, first] of firsts) addTo(byFirst, first, accountId);
    const lowerFloors = async () => {
      for (const [first, accountIds] of [...byFirst].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        await againOnDeadlock(() => lowerExportFloors(this.db.knex, accountIds, first));
    };
    await lowerFloors();
    const opt = (v: bigint | undefined) => (v === undefined ? null : amountParam(v));
    const checkedAt = instant(this.clock.now());
    const rows = days.map((day) => ({
      account_id: day.accountId,
      day: day.day,
      currency: day.currency,
      opening_minor: opt(day.openingMinor),
      closing_minor: opt(day.closingMinor),
      booked_sum_minor: opt(day.bookedSumMinor),
      entry_count: day.entryCount,
      continuity: day.continuity,
      finding: day.finding ?? null,
      checked_at: checkedAt,
    }));
    for (const part of chunks(rows, 100))
      await againOnDeadlock(() =>
        this.db.knex('statement_days').insert(part).onConflict(['account_id', 'day']).merge(),
      );
    await lowerFloors();
  }

  async list(accountId: string, from: LocalDate, to: LocalDate): Promise<StatementDay[]> {
    return (await this.listOf([accountId], from, to)).get(accountId) ?? [];
  }

  /** The checks of several accounts' days in [from, to], per account in day order: one read. */
  async listOf(accountIds: readonly string[], from: LocalDate, to: LocalDate): Promise<Map<string, StatementDay[]>> {
    const out = new Map<string, StatementDay[]>();
    for (const part of chunks(accountIds))
      for (const day of (
        await this.db
          .knex<Row>('statement_days')
          .whereIn('account_id', part)
          .whereBetween('day', [from, to])
          .orderBy('account_id')
          .orderBy('day')
      ).map(toDay)) {
        const list = out.get(day.accountId);
        if (list === undefined) out.set(day.accountId, [day]);
        else list.push(day);
      }
    return out;
  }
}

export function toDay(r: Row): StatementDay {
  const big = (v: unknown) => (v === null || v === undefined ? undefined : toBigInt(v));
  const openingMinor = big(r.opening_minor);
  const closingMinor = big(r.closing_minor);
  const bookedSumMinor = big(r.booked_sum_minor);
  const finding = toOptStr(r.finding);
  return {
    accountId: toStr(r.account_id),
    day: toLocalDate(r.day),
    currency: toStr(r.currency),
    ...(openingMinor === undefined ? {} : { openingMinor }),
    ...(closingMinor === undefined ? {} : { closingMinor }),
    ...(bookedSumMinor === undefined ? {} : { bookedSumMinor }),
    entryCount: toInt(r.entry_count),
    continuity: toStr(r.continuity) as Continuity,
    ...(finding === undefined ? {} : { finding }),
  };
}

/**
 * Where the next fetch of an account must start at the latest: the first day whose continuity
 * is broken (so a correction by the bank is picked up and the break keeps being reported), or
 * the day after the last day checked (so a day the bank was late to close is never skipped);
 * undefined before the first check. These are the two columns (`broken`, `last`) it is told
 * from, for the account `account` (a column reference in a read of several accounts,
 * StatementRepository.fetchStarts):
 * as cheap after five years of days as after one — the first of the account's broken days
 * (statement_days_today_ix: account, continuity, day), the last day off the key's end — not an
 * aggregate over every day the account has.
 */
export function unsettledColumns(knex: Knex, account: string | Knex.Raw): Record<string, Knex.QueryBuilder> {
  // First and last by ORDER BY … LIMIT 1, not min() and max(): MariaDB reads a min() or max()
  // off the index's end only for a constant account, not for one a subquery is correlated with.
  const days = () => knex('statement_days').select('day').where('account_id', account).limit(1);
  return {
    broken: days().whereIn('continuity', BROKEN).orderBy('day', 'asc'),
    last: days().orderBy('day', 'desc'),
  };
}

/** The first unsettled day from a row with the `unsettledColumns`. */
export function firstUnsettled(row: Row | undefined): LocalDate | undefined {
  const candidates = [
    row?.broken,
    typeof row?.last === 'string' ? addDays(row.last as LocalDate, 1) : undefined,
  ].filter((d): d is LocalDate => typeof d === 'string');
  return candidates.sort()[0];
}
