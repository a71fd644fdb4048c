// Money as bigint minor units plus an ISO 4217 currency. Decimal strings are parsed straight
// to bigint: more fraction digits than the currency has is an error, never a rounding.
import { currencyExponent } from './currency.js';

export interface Money {
  readonly minor: bigint;
  readonly currency: string;
}

export type AmountProblem = 'syntax' | 'currency' | 'precision';

export type ParseAmountResult =
  | { ok: true; money: Money }
  | {
      ok: false;
      problem: AmountProblem;
      message: string;
      /** For a syntax problem: the format the text seems to be written in, when it reads in another one. */
      seems?: DecimalFormat;
    };

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
  const match = decimalPattern(format.decimalSeparator).exec(s);
  if (!match) return amountSyntax(text, format);
  const [, minus, whole = '0', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) return amountPrecision(text, fraction.length, currency, exponent);
  const minor = BigInt(whole + significant.padEnd(exponent, '0'));
  return { ok: true, money: { minor: minus ? -minor : minor, currency } };
}

/** The plain decimal of each separator, built once (a RegExp per amount was a visible cost of a bulk). */
const DECIMAL_PATTERNS = new Map<string, RegExp>();
function decimalPattern(separator: string): RegExp {
  let re = DECIMAL_PATTERNS.get(separator);
  if (re === undefined) {
    re = new RegExp(`^(-)?(\\d+)(?:${escapeRegExp(separator)}(\\d+))?$`);
    DECIMAL_PATTERNS.set(separator, re);
  }
  return re;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** More decimals than the currency has: "100.5" has 1 decimal; JPY has none. */
export function amountPrecision(text: string, decimals: number, currency: string, exponent: number): ParseAmountResult {
  const has = exponent === 0 ? 'none' : String(exponent);
  return {
    ok: false,
    problem: 'precision',
    message: `"${text}" has ${plural(decimals, 'decimal')}; ${currency} has ${has}`,
  };
}

const SEPARATORS = ['.', ',', ' ', "'", '\u00a0'] as const;

/** Not a decimal in the format; says which format it seems to be in, when one reads it. */
export function amountSyntax(text: string, format: DecimalFormat): ParseAmountResult {
  const message = `"${text}" is not a decimal amount`;
  const seems = seemsWritten(text.trim(), format);
  if (!seems) return { ok: false, problem: 'syntax', message };
  return {
    ok: false,
    problem: 'syntax',
    message: `${message} written with ${describeFormat(format)}; it seems to be written with ${describeFormat(seems)}`,
    seems,
  };
}

/** '"," before the decimals and a space between thousands' */
export function describeFormat(f: DecimalFormat): string {
  const t = f.thousandsSeparator;
  const between =
    t === undefined || t === ''
      ? 'no thousands separator'
      : `${t === ' ' ? 'a space' : t === '\u00a0' ? 'a no-break space' : `"${t}"`} between thousands`;
  return `"${f.decimalSeparator}" before the decimals and ${between}`;
}

/** The decimal format, other than the given one, in which the text is a plain or grouped decimal. */
function seemsWritten(s: string, format: DecimalFormat): DecimalFormat | undefined {
  const candidates: DecimalFormat[] = [];
  for (const decimalSeparator of ['.', ','] as const) {
    for (const t of SEPARATORS)
      if (t !== decimalSeparator) candidates.push({ decimalSeparator, thousandsSeparator: t });
    candidates.push({ decimalSeparator });
  }
  // The profile's own decimal separator first: a wrong grouping is the likelier mistake.
  candidates.sort(
    (a, b) =>
      Number(b.decimalSeparator === format.decimalSeparator) - Number(a.decimalSeparator === format.decimalSeparator),
  );
  for (const c of candidates) {
    if (
      c.decimalSeparator === format.decimalSeparator &&
      (c.thousandsSeparator ?? '') === (format.thousandsSeparator ?? '')
    )
      continue;
    const d = escapeRegExp(c.decimalSeparator);
    const t = c.thousandsSeparator;
    const re = t ? new RegExp(`^-?\\d{1,3}(${escapeRegExp(t)}\\d{3})+(${d}\\d+)?$`) : new RegExp(`^-?\\d+(${d}\\d+)?$`);
    if (re.test(s) && (t || s.includes(c.decimalSeparator))) return c;
  }
  return undefined;
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
