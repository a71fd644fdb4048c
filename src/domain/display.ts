// How amounts read for people (pages, human reports, notices): grouped thousands and the
// locale's decimal mark, the currency code after the amount. Intl.NumberFormat formats the exact
// decimal string built from the bigint minor units (exact in Node 20), never a float. The ERP's
// files and the CLI's JSON keep money.ts's plain decimals.
import { currencyExponent } from './currency.js';
import { formatAmount, type Money } from './money.js';

/** The locale people read in until a person or company names another. */
export const DEFAULT_LOCALE = 'en';

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, digits: number): Intl.NumberFormat {
  const key = `${locale}/${digits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format;
}

/** "1,975.20" (en), "1 975,20" (nb-NO): the number alone, where a column names the currency. */
export function displayAmount(money: Money, locale: string = DEFAULT_LOCALE): string {
  const digits = currencyExponent(money.currency) ?? 2;
  // A decimal string is formatted exactly (Intl.NumberFormat v3); the cast is for TypeScript's lib.
  const decimal = formatAmount(money) as unknown as number;
  return numberFormat(locale, digits).format(decimal);
}

/** "1,975.20 NOK" (en), "1 975,20 NOK" (nb-NO); exact for any amount. */
export function displayMoney(money: Money, locale: string = DEFAULT_LOCALE): string {
  return `${displayAmount(money, locale)} ${money.currency}`;
}
