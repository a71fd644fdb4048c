// Recorded text (src/domain/recorded-text.ts) in a reader's language: the sentence its key names,
// with its values rendered first (a value may be a sentence or a list of them, joined with "; ",
// or a date or an instant, written as the language writes them).
// A key this catalogue lacks (a row from a newer or older settle) gives undefined, so the caller
// shows the English recorded beside it instead of failing.
import type { LocalDate } from '../domain/local-date.js';
import {
  isRecordedText,
  type RecordedDate,
  type RecordedInstant,
  type RecordedText,
  type RecordedValue,
} from '../domain/recorded-text.js';
import type { MessageKey } from './catalogues/en.js';
import { date, dateTime } from './format.js';
import { CATALOGUES, type Locale } from './locales.js';
import { translate } from './translate.js';

function known(key: string): key is MessageKey {
  return Object.hasOwn(CATALOGUES.en.messages, key);
}

/** `text` in `locale`, or undefined when a key in it is not in the catalogue. */
export function renderRecorded(locale: Locale, text: RecordedText): string | undefined {
  if (!known(text.key)) return undefined;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {})) {
    const rendered = renderValue(locale, value);
    if (rendered === undefined) return undefined;
    values[name] = rendered;
  }
  return translate(locale, text.key, values);
}

function renderValue(locale: Locale, value: RecordedValue): string | number | undefined {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (Array.isArray(value)) {
    const parts = (value as readonly RecordedText[]).map((v) => renderRecorded(locale, v));
    return parts.some((p) => p === undefined) ? undefined : parts.join('; ');
  }
  if (isRecordedText(value)) return renderRecorded(locale, value);
  const figure = value as Partial<RecordedDate & RecordedInstant>;
  if (typeof figure.date === 'string' && /^\d{4}-\d\d-\d\d$/.test(figure.date))
    return date(figure.date as LocalDate, locale);
  const at = typeof figure.at === 'string' ? new Date(figure.at) : undefined;
  if (at !== undefined && !Number.isNaN(at.getTime()) && typeof figure.timeZone === 'string')
    return dateTime(at, figure.timeZone, locale);
  return undefined;
}

/**
 * The words of a message stored with its English (`message`) and, since recorded text, its
 * catalogue key and values: in `locale` when the key is known, else the English as stored. English
 * readers get the stored English, so what they always read does not change by a byte.
 */
export function recordedWords(
  locale: Locale,
  stored: { message?: string | null; key?: unknown; values?: unknown },
): string | undefined {
  const english = stored.message ?? undefined;
  if (locale === 'en' || !isRecordedText(stored)) return english;
  return renderRecorded(locale, stored) ?? english;
}

/** A sentence recorded as `english` with its recorded text `said` (absent on old rows), in `locale`. */
export function recordedSentence(locale: Locale, english: string, said: RecordedText | undefined): string {
  return said === undefined ? english : (recordedWords(locale, { message: english, ...said }) ?? english);
}
