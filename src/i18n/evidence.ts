// The evidence of a match, in the reader's language. The run records it as one English line
// ("agreed: end-to-end id, amount, date; differed: date, 1 day after; score 95",
// src/domain/reconcile/evidence.ts) and the report shows it; this reads that line back into its
// parts and writes them with the catalogue (area `evidence`). A line it cannot read whole (written
// by an older or newer settle) is shown as recorded, English and all, never half translated.
import { CATALOGUES, type Locale } from './locales.js';
import { translate } from './translate.js';

type Part = {
  key: 'evidence.part' | 'evidence.name' | 'evidence.sumOfLines' | 'evidence.amountBy' | 'evidence.date';
  values: Record<string, string | number>;
};

const NAMED: Readonly<Record<string, string>> = {
  'end-to-end id': 'endToEndId',
  'creditor reference': 'creditorReference',
  'counterparty account': 'counterpartyAccount',
  'debtor account': 'debtorAccount',
  'creditor account': 'creditorAccount',
  amount: 'amount',
  date: 'date',
  currency: 'currency',
};

const AMOUNT = '(-?\\d+(?:\\.\\d+)?)';

/** Each part as the run writes it, longest first, so "amount by …" is not read as "amount". */
const READERS: readonly [RegExp, (m: RegExpExecArray) => Part][] = [
  [
    /^date, (\d+) days? (after|before)(, outside the window)?/,
    (m) => ({ key: 'evidence.date', values: { days: Number(m[1]), direction: m[2]!, outside: m[3] ? 'yes' : 'no' } }),
  ],
  [
    /^date, same day, outside the window/,
    () => ({ key: 'evidence.date', values: { days: 0, direction: 'after', outside: 'yes' } }),
  ],
  [
    new RegExp(`^amount by ${AMOUNT} \\(a bank fee within the fee tolerance\\)`),
    (m) => ({ key: 'evidence.amountBy', values: { amount: m[1]!, why: 'fee', allowed: '' } }),
  ],
  [
    new RegExp(`^amount by ${AMOUNT} \\(within the tolerance of ${AMOUNT}\\)`),
    (m) => ({ key: 'evidence.amountBy', values: { amount: m[1]!, why: 'within', allowed: m[2]! } }),
  ],
  [
    new RegExp(`^amount by ${AMOUNT}`),
    (m) => ({ key: 'evidence.amountBy', values: { amount: m[1]!, why: 'none', allowed: '' } }),
  ],
  [/^name \((\d+) % alike\)/, (m) => ({ key: 'evidence.name', values: { percent: Number(m[1]) } })],
  [/^sum of (\d+) lines/, (m) => ({ key: 'evidence.sumOfLines', values: { lines: Number(m[1]) } })],
  [
    new RegExp(`^(${Object.keys(NAMED).join('|')})`),
    (m) => ({ key: 'evidence.part', values: { part: NAMED[m[1]!]! } }),
  ],
];

/** A list of parts as the run joined them (", "), or undefined where one is not known. */
function readList(text: string): Part[] | undefined {
  const parts: Part[] = [];
  let rest = text;
  while (rest.length > 0) {
    let read: { part: Part; length: number } | undefined;
    for (const [re, make] of READERS) {
      const m = re.exec(rest);
      if (m && (rest.length === m[0].length || rest.startsWith(', ', m[0].length))) {
        read = { part: make(m), length: m[0].length };
        break;
      }
    }
    if (!read) return undefined;
    parts.push(read.part);
    rest = rest.slice(read.length).replace(/^, /, '');
  }
  return parts;
}

/**
 * A decimal string as the language writes a number, exactly (Intl formats the string, not a
 * float); English keeps the figure as recorded.
 */
function decimal(value: string, locale: Locale): string {
  if (locale === 'en') return value;
  const digits = value.split('.')[1]?.length ?? 0;
  const f = new Intl.NumberFormat(CATALOGUES[locale].formatLocale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return f.format(value as unknown as number);
}

function write(parts: readonly Part[], locale: Locale): string {
  return parts
    .map(({ key, values }) =>
      translate(
        locale,
        key,
        key === 'evidence.amountBy'
          ? {
              ...values,
              amount: decimal(String(values.amount), locale),
              allowed: values.allowed ? decimal(String(values.allowed), locale) : '',
            }
          : values,
      ),
    )
    .join(', ');
}

/**
 * The recorded evidence line in `locale`, its score in brackets ("… (score 95)"); undefined when
 * the line is not one the run writes.
 */
export function evidenceText(recorded: string, locale: Locale): string | undefined {
  const m = /^agreed: (.*?)(?:; differed: (.*))?; score (\d+)$/.exec(recorded);
  if (!m) return undefined;
  const agreed = m[1] === 'nothing' ? [] : readList(m[1]!);
  const differed = m[2] === undefined ? [] : readList(m[2]);
  if (!agreed || !differed) return undefined;
  return translate(locale, 'evidence.line', {
    agreed: agreed.length > 0 ? write(agreed, locale) : translate(locale, 'evidence.nothing'),
    differed: differed.length > 0 ? write(differed, locale) : 'none',
    score: m[3]!,
  });
}
