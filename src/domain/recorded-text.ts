// A sentence settle records now for a person to read later, in a language chosen then: the
// catalogue key of the sentence and its values (docs/i18n.md, "Recorded text"). A value may be a
// sentence of its own (the evidence a rule gives) or a list of them, joined with "; " whatever
// the language. The English text is recorded beside it, as it always was: what old rows have,
// what English readers get byte for byte, and what is shown when a key is one this version of
// settle no longer knows. The domain does not read the catalogue (src/i18n renders it), so a key
// is a plain string here. Amounts and dates go in as figures (what they are, not how English
// writes them), so that each language writes them its own way when the sentence is read.
import type { LocalDate } from './local-date.js';
import { formatAmount, type Money } from './money.js';

export interface RecordedText {
  key: string;
  values?: Readonly<Record<string, RecordedValue>>;
}

export type RecordedValue = string | number | RecordedFigure | RecordedText | readonly RecordedText[];

/**
 * An amount, a currency, money or a date in a recorded sentence. English reads each as the run
 * always wrote it ("93885.40", "NOK", "93885.40 NOK", "2026-01-08", "2026-01-08T06:00:00.000Z");
 * another language as it writes them ("93 885,40", "kr", "93 885,40 kr", "08.01.2026"). Minor
 * units are a decimal string, so the figure survives JSON exactly.
 */
export type RecordedFigure =
  | { figure: 'amount'; minor: string; currency: string }
  | { figure: 'currency'; code: string }
  | { figure: 'money'; amounts: readonly { minor: string; currency: string }[] }
  | { figure: 'date'; date: string }
  | { figure: 'instant'; at: string; timeZone?: string }
  | { figure: 'days'; days: readonly string[] }
  | { figure: 'rule'; code: string };

/** The number of an amount whose currency the sentence names beside it. */
export const amountFigure = (m: Money): RecordedFigure => ({
  figure: 'amount',
  minor: m.minor.toString(),
  currency: m.currency,
});

/** A currency named beside an amount: its code in English, as the language names it elsewhere ("kr"). */
export const currencyFigure = (code: string): RecordedFigure => ({ figure: 'currency', code });

/** Amounts with their currencies, a list of them joined with ", " ("93885.40 NOK, 10.00 EUR"). */
export const moneyFigure = (amounts: readonly Money[]): RecordedFigure => ({
  figure: 'money',
  amounts: amounts.map((m) => ({ minor: m.minor.toString(), currency: m.currency })),
});

export const dateFigure = (date: LocalDate | string): RecordedFigure => ({ figure: 'date', date });

/**
 * An instant, written in English as its ISO string; in another language in `timeZone` when the
 * sentence was recorded with one (an alert names its company's zone), else in the reader's.
 */
export const instantFigure = (at: Date, timeZone?: string): RecordedFigure => ({
  figure: 'instant',
  at: at.toISOString(),
  ...(timeZone !== undefined ? { timeZone } : {}),
});

/**
 * Days of the week by settle's three-letter names (`mon`, as the expected hours are configured):
 * English writes them as configured ("mon,tue,wed"); another language spells them out.
 */
export const daysFigure = (days: readonly string[]): RecordedFigure => ({ figure: 'days', days: [...days] });

/**
 * A rule by settle's code (`limit-line`, `changed-account`): English writes the code, as the
 * evidence always read; another language names the rule in words with the code beside it.
 */
export const ruleFigure = (code: string): RecordedFigure => ({ figure: 'rule', code });

/** Whether `value` (read back from JSON) is a figure. */
export function isRecordedFigure(value: unknown): value is RecordedFigure {
  return typeof value === 'object' && value !== null && typeof (value as { figure?: unknown }).figure === 'string';
}

/** The English of a figure: byte for byte what the run wrote before figures were recorded. */
export function englishFigure(f: RecordedFigure): string {
  switch (f.figure) {
    case 'amount':
      return formatAmount({ minor: BigInt(f.minor), currency: f.currency });
    case 'currency':
      return f.code;
    case 'money':
      return f.amounts
        .map((m) => `${formatAmount({ minor: BigInt(m.minor), currency: m.currency })} ${m.currency}`)
        .join(', ');
    case 'date':
      return f.date;
    case 'instant':
      return f.at;
    case 'days':
      return f.days.join(',');
    case 'rule':
      return f.code;
  }
}

/** `key` with `values`, dropping values that are absent (so optional parts are left out). */
export function recorded(key: string, values?: Readonly<Record<string, RecordedValue | undefined>>): RecordedText {
  if (values === undefined) return { key };
  const present = Object.entries(values).filter((e): e is [string, RecordedValue] => e[1] !== undefined);
  return present.length === 0 ? { key } : { key, values: Object.fromEntries(present) };
}

/** Whether `value` (read back from JSON) has the shape of a recorded sentence. */
export function isRecordedText(value: unknown): value is RecordedText {
  if (typeof value !== 'object' || value === null) return false;
  const { key, values } = value as { key?: unknown; values?: unknown };
  return typeof key === 'string' && (values === undefined || (typeof values === 'object' && values !== null));
}
