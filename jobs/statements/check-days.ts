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
  let previousClosing = (await deps.statements.getBalance(accountId, CLOSING_BOOKED, addDays(start, -1)))?.minor;
  let earlierClosingKnown =
    previousClosing !== undefined ||
    (await deps.statements.hasBalanceBefore(accountId, CLOSING_BOOKED, addDays(start, -1)));
  for (let day = start; day <= lastDay; day = addDays(day, 1)) {
    const entries = await deps.statements.listTransactions(accountId, { status: 'booked', bookingDate: day });
    const entrySum = entries.reduce((sum, e) => sum + e.amount.minor, 0n);
    const bankClosing = (await deps.statements.getBalance(accountId, CLOSING_BOOKED, day))?.minor;
    const bankOpening = (await deps.statements.getBalance(accountId, OPENING_BOOKED, day))?.minor;
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
      await deps.days.record(record);
      checked.push(record);
    }
    previousClosing = bankClosing;
    earlierClosingKnown ||= bankClosing !== undefined;
  }
  return checked;
}
