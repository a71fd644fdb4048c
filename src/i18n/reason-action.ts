// What a person does about a bank's reason code, in a reader's language: English readers get the
// domain's sentence (actionFor) as they always did; other languages the catalogue's, NARR's for a
// code without a sentence of its own, as actionFor does.
import { actionFor } from '../domain/line-message.js';
import type { MessageKey } from './catalogues/en.js';
import { CATALOGUES, type Locale } from './locales.js';
import { translate } from './translate.js';

export function reasonAction(code: string, locale: Locale): string {
  if (locale === 'en') return actionFor(code);
  const key = `reasonAction.${code}`;
  return translate(locale, Object.hasOwn(CATALOGUES.en.messages, key) ? (key as MessageKey) : 'reasonAction.NARR');
}

/**
 * A line message's recorded `action` in `locale`: the catalogue's words when it is the code's own
 * sentence, else (a return's or a hold's sentence, which say more) the English as recorded.
 */
export function lineAction(message: { code: string; action: string }, locale: Locale): string {
  return locale !== 'en' && message.action === actionFor(message.code)
    ? reasonAction(message.code, locale)
    : message.action;
}
