// Runs the continuity rule over accounts' complete days and stores the verdicts
// (statement_days), so the export job and the reconciliation report read the same facts.
// A day is complete when it lies before today in the company's time zone and the bank has
// reported its closingBooked balance.
import { currencyExponent } from '../../src/domain/currency.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import { formatMinor } from '../../src/domain/money.js';
import type { StatementDay, StatementDayRepository, StatementRepository } from '../../src/store/index.js';
import { CLOSING_BOOKED, OPENING_BOOKED } from './bank-mapping.js';
import { checkDay } from '../../src/domain/statement-day-continuity.js';

export interface CheckDaysDeps {
  statements: StatementRepository;
  days: StatementDayRepository;
}

/** An account whose days from `start` on are to be checked. */
export interface AccountDays {
  accountId: string;
  currency: string;
  start: LocalDate;
}

/**
 * Checks each account's days from its `start` to `lastDay` (inclusive) and stores a verdict for
 * every complete day; the verdicts per account, in order. Each figure is read for the whole
 * range at once, and for all the accounts that share a range in one read (a company's accounts
 * fetched together usually do), and every verdict is stored in one write: a round trip per
 * kind, not three a day or one per account (a bureau's first night checks a month of history on
 * each of thousands of accounts).
 */
export async function checkAccountsDays(
  deps: CheckDaysDeps,
  accounts: readonly AccountDays[],
  lastDay: LocalDate,
): Promise<StatementDay[][]> {
  const byStart = new Map<LocalDate, AccountDays[]>();
  for (const account of accounts) {
    const group = byStart.get(account.start);
    if (group === undefined) byStart.set(account.start, [account]);
    else group.push(account);
  }
  const checked = new Map<string, StatementDay[]>();
  for (const [start, group] of byStart) {
    const ids = group.map((a) => a.accountId);
    const before = addDays(start, -1);
    const booked = await deps.statements.bookedByDayOf(ids, start, lastDay);
    const balances = await deps.statements.balancesOfTypesOf(ids, [CLOSING_BOOKED, OPENING_BOOKED], before, lastDay);
    for (const { accountId, currency } of group) {
      const ofAccount = balances.get(accountId)!;
      checked.set(
        accountId,
        await checkRange(deps, {
          accountId,
          currency,
          start,
          lastDay,
          booked: booked.get(accountId) ?? new Map(),
          closings: ofAccount.get(CLOSING_BOOKED)!,
          openings: ofAccount.get(OPENING_BOOKED)!,
        }),
      );
    }
  }
  const all = accounts.map((a) => checked.get(a.accountId)!);
  await deps.days.recordMany(all.flat());
  return all;
}

/** The verdicts of one account's days from the figures read (statement-day-continuity.ts). */
async function checkRange(
  deps: CheckDaysDeps,
  range: {
    accountId: string;
    currency: string;
    start: LocalDate;
    lastDay: LocalDate;
    booked: ReadonlyMap<LocalDate, readonly { amount: { minor: bigint } }[]>;
    closings: ReadonlyMap<LocalDate, { minor: bigint }>;
    openings: ReadonlyMap<LocalDate, { minor: bigint }>;
  },
): Promise<StatementDay[]> {
  const { accountId, currency, start, lastDay, booked, closings, openings } = range;
  const exponent = currencyExponent(currency) ?? 2;
  const format = (minor: bigint) => `${formatMinor(minor, exponent)} ${currency}`;
  const checked: StatementDay[] = [];
  const before = addDays(start, -1);
  let previousClosing = closings.get(before)?.minor;
  let earlierClosingKnown =
    previousClosing !== undefined || (await deps.statements.hasBalanceBefore(accountId, CLOSING_BOOKED, before));
  for (let day = start; day <= lastDay; day = addDays(day, 1)) {
    const entries = booked.get(day) ?? [];
    const entrySum = entries.reduce((sum, e) => sum + e.amount.minor, 0n);
    const bankClosing = closings.get(day)?.minor;
    const bankOpening = openings.get(day)?.minor;
    const figures = {
      entrySum,
      entryCount: entries.length,
      earlierClosingKnown,
      ...(bankClosing === undefined ? {} : { bankClosing }),
      ...(bankOpening === undefined ? {} : { bankOpening }),
      ...(previousClosing === undefined ? {} : { previousClosing }),
    };
    const verdict = checkDay(figures, format);
    if (verdict !== undefined) {
      const record: StatementDay = {
        accountId,
        day,
        currency,
        closingMinor: verdict.closingMinor,
        bookedSumMinor: entrySum,
        entryCount: entries.length,
        continuity: verdict.continuity,
      };
      if (verdict.openingMinor !== undefined) record.openingMinor = verdict.openingMinor;
      if (verdict.finding !== undefined) record.finding = verdict.finding;
      checked.push(record);
    }
    previousClosing = bankClosing;
    earlierClosingKnown ||= bankClosing !== undefined;
  }
  return checked;
}
