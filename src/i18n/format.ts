// Money and dates as a language writes them. Amounts go through src/domain/display.ts, which
// formats the exact decimal string (never a float); dates through Intl in the company's zone.
import { currencyExponent } from '../domain/currency.js';
import { displayAmount } from '../domain/display.js';
import type { LocalDate } from '../domain/local-date.js';
import { formatAmount, type Money } from '../domain/money.js';
import { CATALOGUES, type Locale } from './locales.js';

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached(key: string, make: () => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let f = dateFormats.get(key);
  if (!f) {
    f = make();
    dateFormats.set(key, f);
  }
  return f;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * "1,975.20 NOK" (en), "1 975,20 kr" (nb): the currency as the catalogue says, with the
 * currency's own decimals. Intl formats the exact decimal string, never a float.
 */
export function money(m: Money, locale: Locale): string {
  if (CATALOGUES[locale].currencyStyle === 'code-after') return `${amount(m, locale)} ${m.currency}`;
  // A decimal string is formatted exactly (Intl.NumberFormat v3); the cast is for TypeScript's lib.
  return currencyFormat(m.currency, locale).format(formatAmount(m) as unknown as number);
}

function currencyFormat(currency: string, locale: Locale): Intl.NumberFormat {
  const key = `${locale}/${currency}`;
  let f = moneyFormats.get(key);
  if (!f) {
    const digits = currencyExponent(currency) ?? 2;
    f = new Intl.NumberFormat(CATALOGUES[locale].formatLocale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    moneyFormats.set(key, f);
  }
  return f;
}

/** How the language names a currency beside an amount: "NOK" (en), "kr" (nb), "€" for EUR in nb. */
export function currencySign(code: string, locale: Locale): string {
  if (CATALOGUES[locale].currencyStyle === 'code-after') return code;
  return (
    currencyFormat(code, locale)
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value ?? code
  );
}

/** The number alone, for a column that names the currency. */
export function amount(m: Money, locale: Locale): string {
  return displayAmount(m, CATALOGUES[locale].formatLocale);
}

/** A calendar date, "8 Jan 2026" (en) or "08.01.2026" (nb); a date has no zone. */
export function date(d: LocalDate, locale: Locale): string {
  const f = cached(
    `d/${locale}`,
    () =>
      new Intl.DateTimeFormat(CATALOGUES[locale].formatLocale, { ...CATALOGUES[locale].dateFormat, timeZone: 'UTC' }),
  );
  return f.format(new Date(`${d}T00:00:00Z`));
}

/** An instant in a zone, "8 Jan 2026, 09:00" (en) or "08.01.2026, 09:00" (nb), 24-hour clock. */
export function dateTime(at: Date, timeZone: string, locale: Locale): string {
  const f = cached(
    `t/${locale}/${timeZone}`,
    () =>
      new Intl.DateTimeFormat(CATALOGUES[locale].formatLocale, {
        ...CATALOGUES[locale].dateFormat,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone,
      }),
  );
  return f.format(at);
}

/** Names sorted as the language sorts them: æ, ø, å after z in Norwegian. */
export function collator(locale: Locale): Intl.Collator {
  return new Intl.Collator(CATALOGUES[locale].formatLocale, { sensitivity: 'base' });
}

const listFormats = new Map<string, Intl.ListFormat>();

/** Names joined as the language joins them: "kari and ola" (en), "kari og ola" (nb). */
export function list(items: readonly string[], locale: Locale): string {
  let f = listFormats.get(locale);
  if (!f) {
    f = new Intl.ListFormat(CATALOGUES[locale].formatLocale, { type: 'conjunction', style: 'long' });
    listFormats.set(locale, f);
  }
  return f.format(items);
}
