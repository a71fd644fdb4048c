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

export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && !NOT_PAYABLE.has(code) && currencyCodes.code(code) !== undefined;
}

/** Number of decimals the currency has (NOK 2, JPY 0, BHD 3); undefined for an unknown code. */
export function currencyExponent(code: string): number | undefined {
  if (!isCurrencyCode(code)) return undefined;
  return currencyCodes.code(code)?.digits;
}
