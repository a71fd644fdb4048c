// Statement continuity: for each account, periods must follow each other without missing days,
// and each opening balance must equal the previous closing balance. A break in either means
// transactions may be missing from what settle reconciled.
import { addDays, daysBetween } from '../local-date.js';
import { formatAmount } from '../money.js';
import { amountFigure, currencyFigure, dateFigure, recorded } from '../recorded-text.js';
import { findingOf, type Finding } from './findings.js';
import type { StatementPeriod } from './inputs.js';

export function statementGaps(periods: readonly StatementPeriod[]): Finding[] {
  const byAccount = new Map<string, StatementPeriod[]>();
  for (const period of periods) {
    const list = byAccount.get(period.accountIban);
    if (list) list.push(period);
    else byAccount.set(period.accountIban, [period]);
  }
  const findings: Finding[] = [];
  for (const [account, list] of [...byAccount].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = [...list].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    for (let i = 1; i < sorted.length; i++) {
      const previous = sorted[i - 1]!;
      const current = sorted[i]!;
      const expectedFrom = addDays(previous.to, 1);
      const base = { company: current.company, accountIban: account, paymentIds: [] };
      const opening = current.openingBalance;
      const closing = previous.closingBalance;
      const moved =
        opening.currency === closing.currency
          ? { minor: opening.minor - closing.minor, currency: opening.currency }
          : undefined;
      if (current.from > expectedFrom) {
        // Across missing days the balance may legitimately move: the movement is what is missing.
        const missing = daysBetween(expectedFrom, current.from);
        const movedText =
          moved && moved.minor !== 0n
            ? `; the balance moved by ${formatAmount(moved)} ${moved.currency} over them`
            : '';
        findings.push(
          findingOf('statement_gap', {
            ...base,
            amountDifference: moved,
            reference: `missing ${expectedFrom}..${addDays(current.from, -1)}`,
            due: current.from,
            message: `No statement covers ${expectedFrom} to ${addDays(current.from, -1)} (${missing} day${missing === 1 ? '' : 's'})${movedText}; bookings of those days may be missing.`,
            said: recorded('findingText.statementGap', {
              from: dateFigure(expectedFrom),
              to: dateFigure(addDays(current.from, -1)),
              days: missing,
              moved:
                moved && moved.minor !== 0n
                  ? recorded('findingText.balanceMoved', {
                      amount: amountFigure(moved),
                      currency: currencyFigure(moved.currency),
                    })
                  : '',
            }),
          }),
        );
        continue;
      }
      if (current.from < expectedFrom) {
        findings.push(
          findingOf('statement_gap', {
            ...base,
            reference: `overlap ${current.from}..${previous.to}`,
            due: current.from,
            message: `Statements overlap from ${current.from} to ${previous.to}; bookings of those days may be counted twice.`,
            said: recorded('findingText.statementOverlap', {
              from: dateFigure(current.from),
              to: dateFigure(previous.to),
            }),
          }),
        );
      }
      if (moved === undefined || moved.minor !== 0n) {
        findings.push(
          findingOf('statement_gap', {
            ...base,
            amountDifference: moved,
            reference: `balance break at ${current.from}`,
            due: current.from,
            message: `Opening balance ${formatAmount(opening)} ${opening.currency} on ${current.from} does not equal the closing balance ${formatAmount(closing)} ${closing.currency} of ${previous.to}.`,
            said: recorded('findingText.balanceBreak', {
              opening: amountFigure(opening),
              openingCurrency: currencyFigure(opening.currency),
              from: dateFigure(current.from),
              closing: amountFigure(closing),
              closingCurrency: currencyFigure(closing.currency),
              to: dateFigure(previous.to),
            }),
          }),
        );
      }
    }
  }
  return findings;
}
