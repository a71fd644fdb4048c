// How a report for people writes its figures in the company's language. In English the reports
// keep what finance has always read (ISO dates, "93,885.40 NOK", times with the zone's
// abbreviation); in another language amounts, dates and times are written as that language
// writes them ("93 885,40 kr", "08.01.2026", "08.01.2026, 09:00"), from src/i18n/format.ts.
import { displayAmount, displayMoney } from '../../domain/display.js';
import type { LocalDate } from '../../domain/local-date.js';
import type { Money } from '../../domain/money.js';
import { formatInZone } from '../../domain/zoned-time.js';
import { format, type Locale } from '../../i18n/index.js';

export interface ReportFormats {
  locale: Locale;
  /** An amount with its currency. */
  money(m: Money): string;
  /** The number alone, for a column that names the currency. */
  amount(m: Money): string;
  /** A calendar date; a text that is not one is left as it is. */
  date(d: string): string;
  /** An instant in the zone; English names the zone (its abbreviation when asked, "GMT+1"). */
  when(at: Date, zone: string, zoneName?: 'abbreviation'): string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function reportFormats(locale: Locale): ReportFormats {
  if (locale === 'en')
    return {
      locale,
      money: (m) => displayMoney(m),
      amount: (m) => displayAmount(m),
      date: (d) => d,
      when: (at, zone, zoneName) => formatInZone(at, zone, zoneName ? { zone: zoneName } : {}),
    };
  return {
    locale,
    money: (m) => format.money(m, locale),
    amount: (m) => format.amount(m, locale),
    date: (d) => (ISO_DATE.test(d) ? format.date(d as LocalDate, locale) : d),
    when: (at, zone) => format.dateTime(at, zone, locale),
  };
}
