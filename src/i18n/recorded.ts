// Recorded text (src/domain/recorded-text.ts) in a reader's language: the sentence its key names,
// with its values rendered first (a value may be a sentence or a list of them, joined with "; ").
// A key this catalogue lacks (a row from a newer or older settle) gives undefined, so the caller
// shows the English recorded beside it instead of failing. Figures (amounts, dates) are written
// as the reader's language writes them; in English as the run always wrote them.
import {
  englishFigure,
  isRecordedFigure,
  isRecordedText,
  type RecordedFigure,
  type RecordedText,
  type RecordedValue,
} from '../domain/recorded-text.js';
import type { MessageKey } from './catalogues/en.js';
import * as format from './format.js';
import { CATALOGUES, type Locale } from './locales.js';
import { translate } from './translate.js';
import { codeCell, codeWords } from './state-words.js';
import { toLocalDate } from '../domain/local-date.js';

function known(key: string): key is MessageKey {
  return Object.hasOwn(CATALOGUES.en.messages, key);
}

/** How a reader reads instants: in this zone (the company's); UTC, named, when none is given. */
export interface RecordedReading {
  timeZone?: string;
}

/** `text` in `locale`, or undefined when a key in it is not in the catalogue. */
export function renderRecorded(locale: Locale, text: RecordedText, reading: RecordedReading = {}): string | undefined {
  if (!known(text.key)) return undefined;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(text.values ?? {})) {
    const rendered = renderValue(locale, value, reading);
    if (rendered === undefined) return undefined;
    values[name] = rendered;
  }
  return translate(locale, text.key, values);
}

function renderValue(locale: Locale, value: RecordedValue, reading: RecordedReading): string | number | undefined {
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (Array.isArray(value)) {
    const parts = (value as readonly RecordedText[]).map((v) => renderRecorded(locale, v, reading));
    return parts.some((p) => p === undefined) ? undefined : parts.join('; ');
  }
  if (isRecordedFigure(value)) {
    try {
      return locale === 'en' ? englishFigure(value) : renderFigure(locale, value, reading);
    } catch {
      return undefined; // a figure this version cannot read (bad JSON): the English is shown
    }
  }
  return isRecordedText(value) ? renderRecorded(locale, value, reading) : undefined;
}

const moneyOf = (m: { minor: string; currency: string }) => ({ minor: BigInt(m.minor), currency: m.currency });

/** A figure as `locale` writes it: "93 885,40", "kr", "93 885,40 kr", "08.01.2026" in bokmål. */
function renderFigure(locale: Locale, f: RecordedFigure, reading: RecordedReading): string {
  switch (f.figure) {
    case 'amount':
      return format.amount(moneyOf(f), locale);
    case 'currency':
      return format.currencySign(f.code, locale);
    case 'money':
      return f.amounts.map((m) => format.money(moneyOf(m), locale)).join(', ');
    case 'date':
      return format.date(toLocalDate(f.date), locale);
    case 'instant': {
      const at = new Date(f.at);
      if (Number.isNaN(at.getTime())) throw new RangeError(`not an instant: ${f.at}`);
      const timeZone = f.timeZone ?? reading.timeZone;
      if (timeZone !== undefined) return format.dateTime(at, timeZone, locale);
      return translate(locale, 'findingText.atUtc', { at: format.dateTime(at, 'UTC', locale) });
    }
    case 'days':
      return format.list(
        f.days.map((d) => codeWords('day', d, locale) ?? d),
        locale,
      );
    case 'rule':
      return codeCell('rule', f.code, locale);
  }
}

/**
 * The words of a message stored with its English (`message`) and, since recorded text, its
 * catalogue key and values: in `locale` when the key is known, else the English as stored. English
 * readers get the stored English, so what they always read does not change by a byte.
 */
export function recordedWords(
  locale: Locale,
  stored: { message?: string | null; key?: unknown; values?: unknown },
  reading: RecordedReading = {},
): string | undefined {
  const english = stored.message ?? undefined;
  if (locale === 'en' || !isRecordedText(stored)) return english;
  return renderRecorded(locale, stored, reading) ?? english;
}

/** A sentence recorded as `english` with its recorded text `said` (absent on old rows), in `locale`. */
export function recordedSentence(
  locale: Locale,
  english: string,
  said: RecordedText | undefined,
  reading: RecordedReading = {},
): string {
  return said === undefined ? english : (recordedWords(locale, { message: english, ...said }, reading) ?? english);
}
