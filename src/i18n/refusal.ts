// A refused operation in the reader's language (docs/errors.md, docs/i18n.md): the sentence of its
// code (`refusal.<code>`, src/i18n/messages/refusal.ts) with the values the error carries. English
// readers read the error's own message, byte for byte what they always read. An error that carries
// no values gets its code's sentence, which says what the code means, and its English message as
// the detail; a sentence that cannot be rendered (a value the error lacks) gives the English.
import type { ErrorCode } from '../domain/error-catalogue.js';
import type { RecordedValue } from '../domain/recorded-text.js';
import type { Locale } from './locales.js';
import { renderRecorded, type RecordedReading } from './recorded.js';
import { translate } from './translate.js';

export interface Refused {
  code: ErrorCode;
  message: string;
  values?: Readonly<Record<string, RecordedValue>> | undefined;
}

export interface RefusalWords {
  /** What was refused and why, in the reader's language. */
  sentence: string;
  /** The English message, labelled, when the sentence does not carry its values. */
  detail?: string;
}

/** The key of a code's sentence. */
export const refusalKey = (code: ErrorCode) => `refusal.${code}`;

export function refusalWords(locale: Locale, error: Refused, reading: RecordedReading = {}): RefusalWords {
  if (locale === 'en') return { sentence: error.message };
  let sentence: string | undefined;
  try {
    sentence = renderRecorded(locale, { key: refusalKey(error.code), values: error.values ?? {} }, reading);
  } catch {
    sentence = undefined; // the sentence needs a value this error does not carry
  }
  if (sentence === undefined) return { sentence: error.message };
  if (error.values !== undefined || error.message === '') return { sentence };
  return { sentence, detail: translate(locale, 'refusal.detail', { message: error.message }) };
}

/** The refusal as one text: the sentence, and the detail on a line of its own. */
export function refusalText(locale: Locale, error: Refused, reading: RecordedReading = {}): string {
  const words = refusalWords(locale, error, reading);
  return words.detail === undefined ? words.sentence : `${words.sentence}\n${words.detail}`;
}
