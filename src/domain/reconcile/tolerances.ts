// How far apart an expected amount and date and a booked one may be and still be "the same",
// as exact decimals (never floating point), and the score at which a match confirms itself.
// The defaults never let an amount alone make a match: every rule also needs a reference, an
// account or a name to agree, and a difference in amount is only tolerated when configured.
import { currencyExponent } from '../currency.js';
import type { Money } from '../money.js';

/** Which amount a percentage tolerance is a percentage of. */
export type PercentBase = 'expected' | 'booked' | 'smaller';

export interface DayWindow {
  /** Days a booking may come before the expected date. */
  readonly before: number;
  /** Days a booking may come after the expected date. */
  readonly after: number;
}

export interface Tolerances {
  /** Absolute amount difference treated as equal, a decimal in the currency's units ("0.50"). */
  readonly amountAbsolute: string;
  /** Percentage difference treated as equal, a decimal ("0.1" = 0.1 %), of `percentBase`. */
  readonly amountPercent: string;
  readonly percentBase: PercentBase;
  /**
   * A bank fee: a debit may exceed the sent amount (a credit fall short of the invoice) by up to
   * this decimal and still be the payment in full, the difference named as a fee.
   */
  readonly fee: string;
  /** Booking date against a payment's execution date. */
  readonly dateWindow: DayWindow;
  /** Booking date of a credit against the receivable's due date: customers pay early more often than late. */
  readonly dueDateWindow: DayWindow;
  /** A match scoring at least this (0–100) confirms itself; below it is a proposal a person decides. */
  readonly autoConfirmScore: number;
}

export const DEFAULT_TOLERANCES: Tolerances = Object.freeze({
  amountAbsolute: '0',
  amountPercent: '0',
  percentBase: 'expected',
  fee: '0',
  dateWindow: Object.freeze({ before: 3, after: 3 }),
  dueDateWindow: Object.freeze({ before: 30, after: 60 }),
  autoConfirmScore: 80,
});

const DECIMAL = /^\d+(\.\d+)?$/;

/** Whether a decimal string is above 100, compared exactly (a float would read "100.0000000000000001" as 100). */
function overHundred(decimal: string): boolean {
  const [whole = '0', fraction = ''] = decimal.split('.');
  const units = BigInt(whole);
  return units > 100n || (units === 100n && /[1-9]/.test(fraction));
}

/** Problems of a tolerances object, as "key: what is wrong" lines (empty when valid). */
export function toleranceProblems(t: Tolerances): string[] {
  const problems: string[] = [];
  for (const key of ['amountAbsolute', 'amountPercent', 'fee'] as const)
    if (!DECIMAL.test(t[key])) problems.push(`tolerances.${key}: must be a non-negative decimal such as "0.50"`);
  if (DECIMAL.test(t.amountPercent) && overHundred(t.amountPercent))
    problems.push('tolerances.amountPercent: at most 100');
  for (const window of ['dateWindow', 'dueDateWindow'] as const)
    for (const side of ['before', 'after'] as const) {
      const n = t[window][side];
      if (!Number.isInteger(n) || n < 0 || n > 366)
        problems.push(`tolerances.${window}.${side}: must be a whole number of days from 0 to 366`);
    }
  if (!Number.isInteger(t.autoConfirmScore) || t.autoConfirmScore < 0 || t.autoConfirmScore > 100)
    problems.push('tolerances.autoConfirmScore: must be a whole number from 0 to 100');
  return problems;
}

/** A non-negative decimal in minor units of the currency, rounded down (a tolerance is never widened). */
export function decimalToMinor(decimal: string, currency: string): bigint {
  const exponent = currencyExponent(currency) ?? 2;
  const [whole = '0', fraction = ''] = decimal.split('.');
  return BigInt(whole + fraction.padEnd(exponent, '0').slice(0, exponent));
}

/**
 * The largest amount difference (minor units) treated as equal between an expected and a booked
 * amount of one currency: the larger of the absolute and the percentage tolerance, the
 * percentage taken of the stated base and rounded down.
 */
export function allowedDifferenceMinor(t: Tolerances, expected: Money, booked: Money): bigint {
  const absolute = decimalToMinor(t.amountAbsolute, expected.currency);
  const [whole = '0', fraction = ''] = t.amountPercent.split('.');
  const numerator = BigInt(whole + fraction);
  if (numerator === 0n) return absolute;
  const e = abs(expected.minor);
  const b = abs(booked.minor);
  const base = t.percentBase === 'expected' ? e : t.percentBase === 'booked' ? b : e < b ? e : b;
  const percent = (base * numerator) / (100n * 10n ** BigInt(fraction.length));
  return percent > absolute ? percent : absolute;
}

/** Whether a booking `days` after (negative: before) the expected date lies in the window. */
export function withinWindow(window: DayWindow, days: number): boolean {
  return days >= -window.before && days <= window.after;
}

export function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}
