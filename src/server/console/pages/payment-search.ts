// The Payments page's search form read into the store's PaymentSearch: each field checked with
// a message in the reader's words (an amount is an exact decimal in the currency's decimals,
// dates are calendar dates), never a server error; the messages are in the reader's language.
import { normalizeIban } from '../../../domain/account-id.js';
import { isLocalDate } from '../../../domain/local-date.js';
import { parseAmount } from '../../../domain/money.js';
import { PAYMENT_STATES, type PaymentState } from '../../../domain/states.js';
import { t } from '../../../i18n/index.js';
import type { PaymentSearch } from '../../../store/index.js';

export const SEARCH_FIELDS = ['e2e', 'ref', 'creditor', 'amount', 'currency', 'from', 'to', 'state'] as const;

const IBAN_LIKE = /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/;

/** The search the query asks for, or the problems of its fields. */
export function readSearch(
  company: string,
  query: URLSearchParams,
): { search: PaymentSearch; problems: string[]; criteria: number } {
  const get = (k: string): string | undefined => {
    const v = query.get(k)?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const problems: string[] = [];
  const search: PaymentSearch = { company };
  let criteria = 0;
  const e2e = get('e2e');
  if (e2e !== undefined) {
    search.endToEndId = e2e;
    criteria++;
  }
  const ref = get('ref');
  if (ref !== undefined) {
    search.reference = ref;
    criteria++;
  }
  const creditor = get('creditor');
  if (creditor !== undefined) {
    criteria++;
    const iban = normalizeIban(creditor);
    if (IBAN_LIKE.test(iban)) search.creditorIban = iban;
    else search.creditorNamePrefix = creditor;
  }
  const currency = get('currency')?.toUpperCase();
  if (currency !== undefined) {
    if (/^[A-Z]{3}$/.test(currency)) search.currency = currency;
    else problems.push(t('payments.search.badCurrency', { currency }));
  }
  const amountText = get('amount');
  if (amountText !== undefined) {
    criteria++;
    // Without a currency the amount is read with two decimals, as most currencies have.
    const parsed = parseAmount(amountText.replace(',', '.'), search.currency ?? 'EUR');
    if (parsed.ok) search.amountMinor = parsed.money.minor;
    else problems.push(t('payments.search.badAmount', { amount: amountText, problem: parsed.message }));
  }
  for (const [key, field] of [
    ['from', 'from'],
    ['to', 'to'],
  ] as const) {
    const text = get(key);
    if (text === undefined) continue;
    criteria++;
    if (isLocalDate(text)) search[field] = text;
    else problems.push(t('payments.search.badDate', { date: text, field: t(`payments.search.${key}`) }));
  }
  const state = get('state');
  if (state !== undefined) {
    criteria++;
    if ((PAYMENT_STATES as readonly string[]).includes(state)) search.states = [state as PaymentState];
    else problems.push(t('payments.search.badState', { state }));
  }
  const after = get('after');
  if (after !== undefined) search.after = after;
  return { search, problems, criteria };
}
