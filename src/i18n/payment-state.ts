// A payment's state in plain words, for people: the console and the human reports show the
// code (RJCT) next to what it means ("Rejected by the bank: AC04 Closed account number") and what
// to do. The ERP's files keep the codes alone. One table of words for every place (the catalogue's
// lineState area, whose keys keep the old word): a new state is a compile error until the
// catalogue describes it.
import { BANK_STATUSES, type BankStatus, type PaymentState } from '../domain/states.js';
import type { MessageKey } from './catalogues/en.js';
import { FALLBACK_LOCALE, type Locale } from './locales.js';
import { reasonAction } from './reason-action.js';
import { translate } from './translate.js';

/** The state's key: TypeScript refuses a state the catalogue does not describe. */
const keyOf = (state: PaymentState): MessageKey => `lineState.${state}`;

export interface BankReason {
  code: string;
  text?: string;
}

export interface PaymentStateDescription {
  /** e.g. "Rejected by the bank: AC04 Closed account number". */
  label: string;
  /** What a person does about it, where the bank gave a reason for a rejection or cancellation. */
  action?: string;
}

const BANK_CODES: ReadonlySet<string> = new Set(BANK_STATUSES);

/** The state's words alone, "Rejected by the bank". */
export function paymentStateLabel(state: PaymentState, locale: Locale = FALLBACK_LOCALE): string {
  return translate(locale, keyOf(state));
}

/** The payment's state in plain words, with the bank's first reason where it gave one. */
export function describePaymentState(
  state: PaymentState,
  reasons: readonly BankReason[] = [],
  locale: Locale = FALLBACK_LOCALE,
): PaymentStateDescription {
  const first = reasons[0];
  const label = paymentStateLabel(state, locale);
  if (!first) return { label };
  const reason = [first.code, first.text].filter(Boolean).join(' ');
  const ended = state === 'RJCT' || state === 'CANC';
  return {
    label: translate(locale, 'lineState.withReason', { label, reason }),
    ...(ended ? { action: reasonAction(first.code, locale) } : {}),
  };
}

/** A bank's status code as words with the code beside it ("Rejected by the bank (RJCT)"); other references as they are. */
export function statusText(reference: string | undefined, locale: Locale = FALLBACK_LOCALE): string | undefined {
  if (reference === undefined || !BANK_CODES.has(reference)) return reference;
  const label = paymentStateLabel(reference as BankStatus, locale);
  return translate(locale, 'lineState.withCode', { label, code: reference });
}
