// ISO 4217 currencies and their minor-unit exponents, from the currency-codes data set.
import currencyCodes from 'currency-codes';

/** Codes that exist in ISO 4217 but are not money one can pay with. */
const NOT_PAYABLE = new Set([
  'XXX',
  'XTS',
  'XAU',
  'XAG',
  'XPD',
  'XPT',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XSU',
  'XUA',
]);

/**
 * Code → exponent, built once: the library's own look-up scans its list on every call, and
 * amounts ask for each line of a bulk (a request of 1,000 lines asked it 2,000 times).
 */
const EXPONENTS: ReadonlyMap<string, number> = new Map(
  currencyCodes.data
    .filter((c) => /^[A-Z]{3}$/.test(c.code) && !NOT_PAYABLE.has(c.code))
    .map((c) => [c.code, c.digits]),
);

export function isCurrencyCode(code: string): boolean {
  return EXPONENTS.has(code);
}

/** Number of decimals the currency has (NOK 2, JPY 0, BHD 3); undefined for an unknown code. */
export function currencyExponent(code: string): number | undefined {
  return EXPONENTS.get(code);
}
