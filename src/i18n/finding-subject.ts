// A finding's subject (what it is about: "payment P-1", "statement NO93… missing 2026-03-03..2026-03-04")
// in a reader's language. The subject is the finding's identity (its id is a hash of it), so it is
// stored as the run writes it and never changes; its words are read from its shape here, as
// findingSubject (src/domain/reconcile/decisions.ts) writes it. English readers, and a shape this
// table does not know, get the subject as stored.
import type { MessageKey } from './catalogues/en.js';
import * as format from './format.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Locale } from './locales.js';
import { translate } from './translate.js';

const DATE = String.raw`(\d{4}-\d\d-\d\d)`;

const SHAPES: readonly [RegExp, MessageKey, readonly string[]][] = [
  [/^payment (\S+)$/, 'findingText.subject.payment', ['id']],
  [/^booking (\S+)$/, 'findingText.subject.booking', ['id']],
  [/^basket (\S+)$/, 'findingText.subject.basket', ['id']],
  [/^consent (.+)$/, 'findingText.subject.consent', ['id']],
  [
    new RegExp(`^statement (\\S*) missing ${DATE}\\.\\.${DATE}$`),
    'findingText.subject.statementMissing',
    ['account', 'from', 'to'],
  ],
  [
    new RegExp(`^statement (\\S*) overlap ${DATE}\\.\\.${DATE}$`),
    'findingText.subject.statementOverlap',
    ['account', 'from', 'to'],
  ],
  [new RegExp(`^statement (\\S*) balance break at ${DATE}$`), 'findingText.subject.balanceBreak', ['account', 'date']],
];

const DATE_VALUES = new Set(['from', 'to', 'date']);

/** The subject in `locale`: "betaling P-1", "kontoutskrift NO93… mangler 03.03.2026–04.03.2026". */
export function findingSubjectWords(locale: Locale, subject: string): string {
  if (locale === 'en') return subject;
  for (const [shape, key, names] of SHAPES) {
    const found = shape.exec(subject);
    if (!found) continue;
    const values = Object.fromEntries(
      names.map((name, i) => {
        const value = found[i + 1] ?? '';
        return [name, DATE_VALUES.has(name) ? format.date(value as LocalDate, locale) : value];
      }),
    );
    return translate(locale, key, values);
  }
  return subject;
}
