// Runs the continuity rule over an account's complete days and stores the verdicts
// (statement_days), so the export job and the reconciliation report read the same facts.
// A day is complete when it lies before today in the company's time zone and the bank has
// reported its closingBooked balance.
import { currencyExponent } from '../../src/domain/currency.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import { formatMinor } from '../../src/domain/money.js';
import type { StatementDay, StatementDayRepository } from '../../src/store/index.js';
import type { StatementRepository } from '../../src/store/index.js';
import { CLOSING_BOOKED, OPENING_BOOKED } from './bank-mapping.js';
import { checkDay } from '../../src/domain/statement-day-continuity.js';

export interface CheckDaysDeps {
  statements: StatementRepository;
  days: StatementDayRepository;
}

/** Checks `start`…`lastDay` (inclusive) and stores a verdict for every complete day. */
export async function checkAccountDays(
  deps: CheckDaysDeps,
  accountId: string,
  currency: string,
  start: LocalDate,
  lastDay: LocalDate,
): Promise<StatementDay[]> {
  const exponent = currencyExponent(currency) ?? 2;
  const format = (minor: bigint) => `${formatMinor(minor, exponent)} ${currency}`;
  const checked: StatementDay[] = [];
  const before = addDays(start, -1);
  // Each figure is read for the whole range at once: a round trip per kind, not three a day
  // (a bureau's first night checks a month of history on each of thousands of accounts).
  const booked = await deps.statements.bookedByDay(accountId, start, lastDay);
  const balances = await deps.statements.balancesOfTypes(accountId, [CLOSING_BOOKED, OPENING_BOOKED], before, lastDay);
  const closings = balances.get(CLOSING_BOOKED)!;
  // Openings from `start` on, as before: the day before the range has no opening to check.
  const openings = balances.get(OPENING_BOOKED)!;
  openings.delete(before);
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
  await deps.days.recordMany(checked);
  return checked;
}
