// The same amount rules as parseAmount (src/domain/money.ts), compiled once per decimal format
// and with the currency exponent cached: parseAmount builds two regular expressions and looks
// the currency up on every call, which was an eighth of the time of validating a large file.
// A property test (test/formats/intake/amount-parser.test.ts) keeps both in agreement.
import { currencyExponent } from '../currency.js';
import { amountPrecision, amountSyntax, type DecimalFormat, type ParseAmountResult } from '../money.js';

export type AmountParser = (text: string, currency: string) => ParseAmountResult;

export function compileAmountParser(format: DecimalFormat = { decimalSeparator: '.' }): AmountParser {
  const sep = format.thousandsSeparator;
  const dec = escapeRegExp(format.decimalSeparator);
  const grouped = sep ? new RegExp(`^-?\\d{1,3}(${escapeRegExp(sep)}\\d{3})+(${dec}\\d+)?$`) : undefined;
  const plain = new RegExp(`^(-)?(\\d+)(?:${dec}(\\d+))?$`);
  const exponents = new Map<string, number | undefined>();
  const decCode = format.decimalSeparator.length === 1 ? format.decimalSeparator.charCodeAt(0) : -1;

  return (text, currency) => {
    let exponent = exponents.get(currency);
    if (exponent === undefined && !exponents.has(currency)) {
      exponent = currencyExponent(currency);
      if (exponents.size > 64) exponents.clear();
      exponents.set(currency, exponent);
    }
    if (exponent === undefined)
      return { ok: false, problem: 'currency', message: `"${currency}" is not an ISO 4217 currency code` };
    const quick = plainMinor(text, decCode, exponent);
    if (quick !== undefined) return { ok: true, money: { minor: quick, currency } };
    let s = text.trim();
    if (sep && grouped?.test(s)) s = s.split(sep).join('');
    const match = plain.exec(s);
    if (!match) return amountSyntax(text, format);
    const [, minus, whole = '0', fraction = ''] = match;
    const significant = fraction.replace(/0+$/, '');
    if (significant.length > exponent) return amountPrecision(text, fraction.length, currency, exponent);
    const minor = BigInt(whole + significant.padEnd(exponent, '0'));
    return { ok: true, money: { minor: minus ? -minor : minor, currency } };
  };
}

/**
 * The common case without regular expressions or strings: unsigned digits, at most one decimal
 * separator, no more decimals than the currency has, and few enough digits to be exact in a
 * double. Anything else (signs, blanks, grouping, long or malformed amounts) is undefined and
 * goes the regular way, which also words the errors.
 */
function plainMinor(text: string, decCode: number, exponent: number): bigint | undefined {
  const n = text.length;
  if (n === 0 || n > 16) return undefined;
  let value = 0;
  let decimals = -1;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      if (decimals >= 0) decimals++;
    } else if (c === decCode && decimals < 0 && i > 0 && i < n - 1) {
      decimals = 0;
    } else {
      return undefined;
    }
  }
  if (decimals < 0) decimals = 0;
  if (decimals > exponent) return undefined;
  const minor = value * 10 ** (exponent - decimals);
  return Number.isSafeInteger(minor) ? BigInt(minor) : undefined;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
