// States, entities, sources, days and rule names in plain words, with the code one glance away
// ("Venter på en godkjenner (link_issued)"), as payment-state.ts does for a payment's state. One
// table per kind in the catalogue (areas `states` and `rules`); a code the catalogue does not
// describe (a bank's new status) is shown as it came. test/i18n/state-words.test.ts enumerates
// every state machine, source and rule and fails when a value has no words in either language.
import type { MessageKey } from './catalogues/en.js';
import { CATALOGUES, FALLBACK_LOCALE, type Locale } from './locales.js';
import { paymentStateLabel } from './payment-state.js';
import { translate } from './translate.js';
import { PAYMENT_STATES, type PaymentState } from '../domain/states.js';

/** The kinds of code that have a table of words. */
export type WordKind =
  | 'consent'
  | 'consentSource'
  | 'account'
  | 'bulk'
  | 'basket'
  | 'file'
  | 'payment'
  | 'entity'
  | 'source'
  | 'day'
  | 'rule';

const RULE_TABLES = ['rules.match.', 'rules.credit.', 'rules.control.'] as const;
const PAYMENT_CODES: ReadonlySet<string> = new Set(PAYMENT_STATES);
const BANK_STATUS = /^[A-Z]{4}$/;

function known(key: string): key is MessageKey {
  return Object.hasOwn(CATALOGUES[FALLBACK_LOCALE].messages, key);
}

/** The catalogue key of a code's words, or undefined when the catalogue has none. */
export function wordsKey(kind: WordKind, code: string): MessageKey | undefined {
  if (kind === 'rule') return RULE_TABLES.map((table) => `${table}${code}`).find(known);
  const key = `states.${kind}.${code}`;
  return known(key) ? key : undefined;
}

/** The code's words alone ("Venter på en godkjenner"), or undefined when the catalogue has none. */
export function codeWords(kind: WordKind, code: string, locale: Locale = FALLBACK_LOCALE): string | undefined {
  if (kind === 'payment') return PAYMENT_CODES.has(code) ? paymentStateLabel(code as PaymentState, locale) : undefined;
  if (kind === 'file') return translate(locale, 'files.state', { state: code });
  const key = wordsKey(kind, code);
  return key === undefined ? undefined : translate(locale, key);
}

/** The code's words with the code beside them ("Godkjent i banken (authorised)"); an unknown code alone. */
export function wordsWithCode(kind: WordKind, code: string, locale: Locale = FALLBACK_LOCALE): string {
  const label = codeWords(kind, code, locale);
  if (label === undefined || label === code) return code;
  return translate(locale, kind === 'rule' ? 'rules.withCode' : 'states.withCode', {
    ...(kind === 'rule' ? { name: label } : { label }),
    code,
  });
}

/**
 * A code where English has always shown the code (a table's cell, the CLI's human output):
 * English keeps it; another language says it in words with the code beside it.
 */
export function codeCell(kind: WordKind, code: string, locale: Locale = FALLBACK_LOCALE): string {
  return locale === 'en' ? code : wordsWithCode(kind, code, locale);
}

/**
 * A state in a payment's history: its entity's states, where a bulk's row may carry the bank's
 * status of the bulk (RCVD, ACSC …), which reads as a payment's does.
 */
export function historyStateKind(entity: string, state: string): WordKind {
  if (entity === 'payment_file' || entity === 'file') return 'file';
  if (entity === 'bulk') return BANK_STATUS.test(state) ? 'payment' : 'bulk';
  if (entity === 'basket') return 'basket';
  return 'payment';
}
