// Money as bigint minor units plus an ISO 4217 currency. Decimal strings are parsed straight
// to bigint: more fraction digits than the currency has is an error, never a rounding.
import { currencyExponent } from './currency.js';

export interface Money {
  readonly minor: bigint;
  readonly currency: string;
}

export type AmountProblem = 'syntax' | 'currency' | 'precision';

export type ParseAmountResult = { ok: true; money: Money } | { ok: false; problem: AmountProblem; message: string };

export interface DecimalFormat {
  decimalSeparator: '.' | ',';
  /** Grouping character allowed between digit groups of three, if any. */
  thousandsSeparator?: '' | ' ' | '.' | ',' | "'" | '\u00a0';
}

const DOT: DecimalFormat = { decimalSeparator: '.' };

/**
 * Parses a decimal amount such as "1234.50" (or "1 234,50" with a Nordic format) into minor
 * units. A leading minus is allowed; whether negatives are acceptable is the caller's rule.
 */
export function parseAmount(text: string, currency: string, format: DecimalFormat = DOT): ParseAmountResult {
  const exponent = currencyExponent(currency);
  if (exponent === undefined)
    return { ok: false, problem: 'currency', message: `"${currency}" is not an ISO 4217 currency code` };
  let s = text.trim();
  const sep = format.thousandsSeparator;
  if (sep) {
    const grouped = new RegExp(
      `^-?\\d{1,3}(${escapeRegExp(sep)}\\d{3})+(${escapeRegExp(format.decimalSeparator)}\\d+)?$`,
    );
    if (grouped.test(s)) s = s.split(sep).join('');
  }
  const match = new RegExp(`^(-)?(\\d+)(?:${escapeRegExp(format.decimalSeparator)}(\\d+))?$`).exec(s);
  if (!match) return { ok: false, problem: 'syntax', message: `"${text}" is not a decimal amount` };
  const [, minus, whole = '0', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) {
    return {
      ok: false,
      problem: 'precision',
      message: `"${text}" has ${fraction.length} decimals; ${currency} has ${exponent}`,
    };
  }
  const minor = BigInt(whole + significant.padEnd(exponent, '0'));
  return { ok: true, money: { minor: minus ? -minor : minor, currency } };
}

/** Formats minor units as a plain decimal string with the currency's exponent ("1234.50", "100" for JPY). */
export function formatAmount(money: Money, decimalSeparator: '.' | ',' = '.'): string {
  const exponent = currencyExponent(money.currency) ?? 2;
  return formatMinor(money.minor, exponent, decimalSeparator);
}

export function formatMinor(minor: bigint, exponent: number, decimalSeparator: '.' | ',' = '.'): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const fraction = exponent === 0 ? '' : decimalSeparator + digits.slice(-exponent);
  return (negative ? '-' : '') + whole + fraction;
}

export function money(minor: bigint, currency: string): Money {
  return { minor, currency };
}

export function addMoney(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new TypeError(`cannot add ${a.currency} to ${b.currency}`);
  return { minor: a.minor + b.minor, currency: a.currency };
}

/** Totals per currency, in first-seen order. */
export function totalsByCurrency(amounts: Iterable<Money>): Money[] {
  const totals = new Map<string, bigint>();
  for (const m of amounts) totals.set(m.currency, (totals.get(m.currency) ?? 0n) + m.minor);
  return [...totals].map(([currency, minor]) => ({ currency, minor }));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
