// A signed-off period as finance files it: the signer, the state (signed, or reopened with the
// reason a later finding gave), the balances per account the period was closed on and the totals
// by finding type. As CSV (one section a line kind, stable columns; numbers plain, texts through
// the formula rule) and as a self-contained HTML page (the report's stylesheet, no scripts). The
// HTML page, and the CSV a person opens (signoffCsvForPeople), are in the company's or the
// person's language; the machine CSV keeps its documented columns.
import { stringify } from 'csv-stringify/sync';
import { formatAmount, type Money } from '../../domain/money.js';
import { toLocalDate, type LocalDate } from '../../domain/local-date.js';
import { FINDING_TYPES, type FindingType } from '../../domain/reconcile/findings.js';
import { Document, InlineStyle, render, Sentence, Table, type Html } from '../../html/index.js';
import { FALLBACK_LOCALE, format, t, translate, withLocale, type Locale, type MessageKey } from '../../i18n/index.js';
import { neutraliseFormula, neutraliseNumericCell } from '../csv-safety.js';
import { REPORT_CSS } from './html-style.js';
import { reportFormats, type ReportFormats } from './report-formats.js';
import { spreadsheetCsv } from './spreadsheet.js';

/** What a period's export shows; the store's StoredSignoff has this shape. */
export interface SignedPeriod {
  company: string;
  period: string;
  from: LocalDate;
  to: LocalDate;
  state: 'signed' | 'reopened';
  signedBy: string;
  signedPerson: string;
  signedAt: Date;
  note?: string;
  balances: readonly {
    accountIban: string;
    currency: string;
    opening?: bigint;
    sent: bigint;
    bookedOut: bigint;
    bookedIn: bigint;
    closing?: bigint;
    reported?: bigint;
    difference?: bigint;
  }[];
  totals: readonly { type: string; findings: number; decided: number; amounts: readonly Money[] }[];
  reopenedAt?: Date;
  reopenedReason?: string;
}

/** The CSV's number columns: amounts as plain decimals, counts as integers, never quoted. */
export const SIGNOFF_NUMERIC_COLUMNS = [
  'opening',
  'sent',
  'booked_out',
  'booked_in',
  'closing',
  'bank_closing',
  'difference',
  'findings',
  'decided',
  'amount',
] as const;

/** The CSV's columns: `section` says which kind of line it is (`period`, `balance`, `finding_type`). */
export const SIGNOFF_CSV_COLUMNS = [
  'section',
  'company',
  'period',
  'from',
  'to',
  'state',
  'signed_by',
  'signed_person',
  'signed_at',
  'reopened_at',
  'reopened_reason',
  'note',
  'account_iban',
  'finding_type',
  'currency',
  ...SIGNOFF_NUMERIC_COLUMNS,
] as const;

type Column = (typeof SIGNOFF_CSV_COLUMNS)[number];
const NUMERIC: ReadonlySet<Column> = new Set(SIGNOFF_NUMERIC_COLUMNS);

const plain = (minor: bigint | undefined, currency: string) =>
  minor === undefined ? undefined : formatAmount({ minor, currency });

export function renderSignoffCsv(p: SignedPeriod): string {
  const head: Partial<Record<Column, string>> = { company: p.company, period: p.period, from: p.from, to: p.to };
  const lines: Partial<Record<Column, string | undefined>>[] = [
    {
      section: 'period',
      ...head,
      state: p.state,
      signed_by: p.signedBy,
      signed_person: p.signedPerson,
      signed_at: p.signedAt.toISOString(),
      reopened_at: p.reopenedAt?.toISOString(),
      reopened_reason: p.reopenedReason,
      note: p.note,
    },
    ...p.balances.map((b) => ({
      section: 'balance',
      ...head,
      account_iban: b.accountIban,
      currency: b.currency,
      opening: plain(b.opening, b.currency),
      sent: plain(b.sent, b.currency),
      booked_out: plain(b.bookedOut, b.currency),
      booked_in: plain(b.bookedIn, b.currency),
      closing: plain(b.closing, b.currency),
      bank_closing: plain(b.reported, b.currency),
      difference: plain(b.difference, b.currency),
    })),
    ...p.totals.flatMap((t) =>
      (t.amounts.length > 0 ? t.amounts : [undefined]).map((m, i) => ({
        section: 'finding_type',
        ...head,
        finding_type: t.type,
        // The counts once per type, on its first currency's line.
        findings: i === 0 ? String(t.findings) : undefined,
        decided: i === 0 ? String(t.decided) : undefined,
        currency: m?.currency,
        amount: m ? formatAmount(m) : undefined,
      })),
    ),
  ];
  const rows = lines.map((line) =>
    SIGNOFF_CSV_COLUMNS.map((c) => {
      const v = line[c] ?? '';
      return NUMERIC.has(c) ? neutraliseNumericCell(v) : neutraliseFormula(v);
    }),
  );
  return stringify([[...SIGNOFF_CSV_COLUMNS], ...rows], { record_delimiter: '\r\n' });
}

/**
 * The signed period's CSV as a person opens it in a spreadsheet in `locale` (the machine CSV in
 * English): heads, parts, the state and finding types in words, dates as the language writes them
 * and instants in `timeZone` (the company's).
 */
export function signoffCsvForPeople(p: SignedPeriod, locale: Locale, timeZone = 'UTC'): string {
  return spreadsheetCsv(renderSignoffCsv(p), locale, {
    head: (column) => `reportSignoff.csv.${column as Column}` satisfies MessageKey,
    numeric: NUMERIC,
    text: (column, cell) => (cell === '' ? cell : signoffCell(column, cell, locale, timeZone)),
  });
}

const SECTIONS: ReadonlySet<string> = new Set(['period', 'balance', 'finding_type']);

/** A text cell of the machine CSV in `locale`; a code this version does not know stays as written. */
function signoffCell(column: string, cell: string, locale: Locale, timeZone: string): string {
  switch (column) {
    case 'section':
      return SECTIONS.has(cell) ? translate(locale, `signoffCsv.section.${cell as 'period'}`) : cell;
    case 'state':
      return cell === 'signed' || cell === 'reopened' ? translate(locale, `signoffCsv.state.${cell}`) : cell;
    case 'finding_type':
      return Object.hasOwn(FINDING_TYPES, cell) ? translate(locale, `findingType.${cell as FindingType}.title`) : cell;
    case 'from':
    case 'to':
      return /^\d{4}-\d{2}-\d{2}$/.test(cell) ? format.date(toLocalDate(cell), locale) : cell;
    case 'signed_at':
    case 'reopened_at': {
      const at = new Date(cell);
      return Number.isNaN(at.getTime()) ? cell : format.dateTime(at, timeZone, locale);
    }
    default:
      return cell;
  }
}

export function renderSignoffHtml(
  p: SignedPeriod,
  options: { timeZone: string; companyName?: string; locale?: Locale },
): Html {
  const locale = options.locale ?? FALLBACK_LOCALE;
  return withLocale(locale, () => signoffPage(p, options, reportFormats(locale)));
}

function signoffPage(p: SignedPeriod, options: { timeZone: string; companyName?: string }, fmt: ReportFormats): Html {
  const title = t('reportSignoff.title', { period: p.period, company: options.companyName ?? p.company });
  const zone = options.timeZone;
  const shown = (minor: bigint | undefined, currency: string) =>
    minor === undefined ? '–' : fmt.money({ minor, currency });
  const when = (at: Date | undefined) => (at ? fmt.when(at, zone) : '–');
  const signer = t('reportSignoff.signer', { name: p.signedBy, person: p.signedPerson, at: when(p.signedAt) });
  return render(
    <Document lang={fmt.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <InlineStyle css={REPORT_CSS} />
      </head>
      <body>
        <header>
          <h1>{title}</h1>
          <p class="meta">{t('reportSignoff.meta', { from: fmt.date(p.from), to: fmt.date(p.to), zone })}</p>
        </header>
        <main>
          <section aria-labelledby="signer">
            <h2 id="signer">{t('reportSignoff.signedBy')}</h2>
            <p>{p.note ? t('reportSignoff.note', { signer, note: p.note }) : signer}</p>
            {p.state === 'reopened' ? (
              <p class="reopened">
                <Sentence
                  k="reportSignoff.reopened"
                  values={{ at: when(p.reopenedAt), reason: p.reopenedReason ?? '' }}
                  tags={{ b: (text) => <strong>{text}</strong> }}
                />
              </p>
            ) : (
              <p>{t('reportSignoff.signed')}</p>
            )}
          </section>
          <section aria-labelledby="balances">
            <h2 id="balances">{t('reportSignoff.balances')}</h2>
            <Table
              caption={t('reportSignoff.balancesCaption')}
              head={(
                ['account', 'opening', 'sent', 'bookedOut', 'bookedIn', 'closing', 'bankClosing', 'difference'] as const
              ).map((h) => t(`reportSignoff.head.${h}`))}
              rows={p.balances}
              empty={t('reportSignoff.noBalances')}
              cells={(b) => [
                b.accountIban,
                shown(b.opening, b.currency),
                shown(b.sent, b.currency),
                shown(b.bookedOut, b.currency),
                shown(b.bookedIn, b.currency),
                shown(b.closing, b.currency),
                shown(b.reported, b.currency),
                shown(b.difference, b.currency),
              ]}
            />
          </section>
          <section aria-labelledby="types">
            <h2 id="types">{t('reportSignoff.types')}</h2>
            <Table
              caption={t('reportSignoff.typesCaption')}
              head={(['type', 'findings', 'decided', 'amount'] as const).map((h) => t(`reportSignoff.head.${h}`))}
              rows={p.totals}
              empty={t('reportSignoff.noTypes')}
              cells={(row) => [
                Object.hasOwn(FINDING_TYPES, row.type) ? t(`findingType.${row.type as FindingType}.title`) : row.type,
                String(row.findings),
                String(row.decided),
                row.amounts.length === 0 ? '–' : row.amounts.map((m) => fmt.money(m)).join(', '),
              ]}
            />
          </section>
        </main>
      </body>
    </Document>,
  );
}
