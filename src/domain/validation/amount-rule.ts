// The amount and currency of a line: an ISO 4217 currency one can pay with, an amount in the
// format's layout with no more decimals than the currency has, greater than zero and within
// the configured maximum. The amount as read is kept even on a line with other errors (the
// file's totals and control sums count it).
import { isCurrencyCode } from '../currency.js';
import { parseAmount, type DecimalFormat, type Money } from '../money.js';
import { compileAmountParser, type AmountParser } from './amount-parser.js';
import { BoundedCache } from './bounded-cache.js';
import { IssueCode } from './codes.js';
import { add, type Ctx } from './line-context.js';

/** How the reader's text is written: CSV profiles choose; pain.001 is always "." and ISO dates. */
export interface LineFormat {
  decimalFormat: DecimalFormat;
  dateFormat: string;
  /** The CSV profile the format comes from, named in hints about its settings; none for pain.001. */
  profile?: string;
}

export interface AmountRead {
  /** The amount when the line may pay it. */
  amount?: Money;
  /** The amount whenever it could be read. */
  amountRead?: Money;
}

const NOTHING: AmountRead = Object.freeze({});

export class AmountRule {
  private readonly maxByCurrency = new Map<string, bigint | undefined>();
  /** A currency as written → its code in capitals and whether one can pay with it. */
  private readonly currencyCache = new BoundedCache<string, { code: string; known: boolean }>(64);
  private readonly parseAmount: AmountParser;

  constructor(
    private readonly maxAmount: Readonly<Record<string, string>> | undefined,
    private readonly format: LineFormat,
  ) {
    this.parseAmount = compileAmountParser(format.decimalFormat);
  }

  /** Keyed by the text as written, so a repeated currency is neither capitalised nor looked up again. */
  currency(text: string): { code: string; known: boolean } {
    let currency = this.currencyCache.get(text);
    if (currency === undefined) {
      const code = text.toUpperCase();
      this.currencyCache.set(text, (currency = { code, known: isCurrencyCode(code) }));
    }
    return currency;
  }

  check(ctx: Ctx, amountText: string | undefined, currencyText: string | undefined): AmountRead {
    if (currencyText === undefined) return NOTHING;
    const { code: currency, known } = this.currency(currencyText);
    if (!known)
      add(
        ctx,
        IssueCode.CURRENCY_INVALID,
        'error',
        'currency',
        `"${currency}" is not an ISO 4217 currency code one can pay with`,
      );
    if (amountText === undefined || !known) return NOTHING;
    const parsed = this.parseAmount(amountText, currency);
    if (!parsed.ok) {
      const code = parsed.problem === 'precision' ? IssueCode.AMOUNT_PRECISION : IssueCode.AMOUNT_SYNTAX;
      add(ctx, code, 'error', 'amount', parsed.message + settingHint(this.format, parsed.seems));
      return NOTHING;
    }
    const money = parsed.money;
    if (money.minor <= 0n) {
      add(ctx, IssueCode.AMOUNT_NOT_POSITIVE, 'error', 'amount', `amount "${amountText}" must be greater than zero`);
      return { amountRead: money };
    }
    const max = this.maxFor(currency);
    if (max !== undefined && money.minor > max) {
      const limit = this.maxAmount?.[currency] ?? this.maxAmount?.['*'];
      add(
        ctx,
        IssueCode.AMOUNT_ABOVE_MAXIMUM,
        'error',
        'amount',
        `amount "${amountText}" ${currency} is above the configured maximum ${limit}`,
      );
      return { amountRead: money };
    }
    return { amount: money, amountRead: money };
  }

  private maxFor(currency: string): bigint | undefined {
    const maxAmount = this.maxAmount;
    if (!maxAmount) return undefined;
    if (this.maxByCurrency.has(currency)) return this.maxByCurrency.get(currency);
    const limit = maxAmount[currency] ?? maxAmount['*'];
    const parsed = limit === undefined ? undefined : parseAmount(limit, currency);
    const max = parsed?.ok ? parsed.money.minor : undefined;
    this.maxByCurrency.set(currency, max);
    return max;
  }
}

/** What to change so that amounts written like this one are read: profile settings, or the pain.001 rule. */
function settingHint(format: LineFormat, seems: DecimalFormat | undefined): string {
  if (!seems) return '';
  if (format.profile === undefined)
    return '; pain.001 amounts are written with "." before the decimals and no thousands separator';
  const changes: string[] = [];
  if (seems.decimalSeparator !== format.decimalFormat.decimalSeparator)
    changes.push(`decimalSeparator: "${seems.decimalSeparator}"`);
  if ((seems.thousandsSeparator ?? '') !== (format.decimalFormat.thousandsSeparator ?? ''))
    changes.push(`thousandsSeparator: ${JSON.stringify(seems.thousandsSeparator ?? '')}`);
  return `: if the whole file is written so, set ${changes.join(' and ')} in CSV profile "${format.profile}"`;
}
