// A sentence settle records now for a person to read later, in a language chosen then: the
// catalogue key of the sentence and its values (docs/i18n.md, "Recorded text"). A value may be a
// sentence of its own (the evidence a rule gives) or a list of them, joined with "; " whatever
// the language. The English text is recorded beside it, as it always was: what old rows have,
// what English readers get byte for byte, and what is shown when a key is one this version of
// settle no longer knows. The domain does not read the catalogue (src/i18n renders it), so a key
// is a plain string here.
export interface RecordedText {
  key: string;
  values?: Readonly<Record<string, RecordedValue>>;
}

export type RecordedValue = string | number | RecordedText | readonly RecordedText[] | RecordedDate | RecordedInstant;

/** A calendar date (ISO `2026-01-08`), written as the reader's language writes dates. */
export interface RecordedDate {
  date: string;
}

/** An instant (ISO), written as the reader's language writes a date and time in `timeZone`. */
export interface RecordedInstant {
  at: string;
  timeZone: string;
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
