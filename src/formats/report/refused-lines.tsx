// The accountant's report of a payment file's refused lines: per line, the ERP line, the bank's
// reason in its own words and what a person should do (from the one line-message model,
// src/domain/line-message.ts). It goes to the reports folder and into the alert e-mail, never
// into the ERP's own files (pain.002 and the status CSV carry codes and the bank's text only).
import type { LineMessage } from '../../domain/line-message.js';
import { parseAmount } from '../../domain/money.js';
import { Document, InlineStyle, render, type Html } from '../../html/index.js';
import { FALLBACK_LOCALE, format, lineAction, translate, type Locale, type MessageKey } from '../../i18n/index.js';
import { REPORT_CSS } from './html-style.js';

export interface RefusedLine {
  lineNumber: number;
  endToEndId: string;
  creditorName: string;
  /** Decimal string in the currency's precision. */
  amount: string;
  currency: string;
  /** The line's status as the ERP receives it (RJCT, PDNG, …). */
  status: string;
  messages: readonly LineMessage[];
}

export interface RefusedLinesReport {
  company: string;
  fileName: string;
  /** When the lines last changed, in the company's time zone. */
  asOf: string;
  lines: readonly RefusedLine[];
  /** The company's language (default English). */
  locale?: Locale;
}

const NO_LINE = 'the bank named no line';

/** "The bank's reason" as a person reads it, saying plainly when the bank named no line. */
function reason(m: LineMessage, locale: Locale): string {
  const text = m.bankText.replace(` (${NO_LINE})`, '');
  const plain = m.bankText.includes(NO_LINE) ? ` ${translate(locale, 'refusedLines.wholeBulk')}` : '';
  return `${m.code}: ${text}${plain}`;
}

function title(r: RefusedLinesReport, locale: Locale): string {
  return translate(locale, 'refusedLines.title', { company: r.company, count: r.lines.length, file: r.fileName });
}

/** English keeps "845.00 NOK", as the ERP line; another language writes money its own way. */
function amountOf(line: RefusedLine, locale: Locale): string {
  const parsed = locale === 'en' ? undefined : parseAmount(line.amount, line.currency);
  return parsed?.ok ? format.money(parsed.money, locale) : `${line.amount} ${line.currency}`;
}

export function renderRefusedLinesText(r: RefusedLinesReport): string {
  const locale = r.locale ?? FALLBACK_LOCALE;
  return [
    title(r, locale),
    translate(locale, 'refusedLines.asOf', { asOf: r.asOf }),
    '',
    refusedLinesBody(r.lines, locale),
  ].join('\n');
}

/** The lines alone, for an e-mail that has its own subject. */
export function refusedLinesBody(lines: readonly RefusedLine[], locale: Locale = FALLBACK_LOCALE): string {
  const reasonLabel = `${translate(locale, 'refusedLines.reasonLabel')}:`;
  const actionLabel = `${translate(locale, 'refusedLines.actionLabel')}:`;
  // The two labels end in one column, so the reason and the advice start under each other.
  const width = Math.max(reasonLabel.length, actionLabel.length) + 1;
  const out: string[] = [];
  for (const line of lines) {
    out.push(
      translate(locale, 'refusedLines.line', {
        line: String(line.lineNumber),
        reference: line.endToEndId,
        creditor: line.creditorName,
        amount: amountOf(line, locale),
        status: line.status,
      }),
    );
    for (const m of line.messages) {
      out.push(`  ${reasonLabel.padEnd(width)}${reason(m, locale)}`);
      out.push(`  ${actionLabel.padEnd(width)}${lineAction(m, locale)}`);
    }
    out.push('');
  }
  return out.join('\n');
}

const COLUMNS: readonly MessageKey[] = [
  'refusedLines.column.line',
  'refusedLines.column.reference',
  'refusedLines.column.creditor',
  'refusedLines.column.amount',
  'refusedLines.column.status',
  'refusedLines.column.reason',
  'refusedLines.column.action',
];

export function renderRefusedLinesHtml(r: RefusedLinesReport): Html {
  const locale = r.locale ?? FALLBACK_LOCALE;
  return render(
    <Document lang={locale}>
      <head>
        <meta charset="utf-8" />
        <title>{title(r, locale)}</title>
        <InlineStyle css={REPORT_CSS} />
      </head>
      <body>
        <h1>{title(r, locale)}</h1>
        <p>{translate(locale, 'refusedLines.asOf', { asOf: r.asOf })}</p>
        <table>
          <thead>
            <tr>
              {COLUMNS.map((key) => (
                <th>{translate(locale, key)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.lines.map((line) =>
              line.messages.map((m, i) => <MessageRow line={line} message={m} first={i === 0} locale={locale} />),
            )}
          </tbody>
        </table>
      </body>
    </Document>,
  );
}

/** One of a line's messages; the first carries the line's facts, spanning all its messages. */
function MessageRow(props: { line: RefusedLine; message: LineMessage; first: boolean; locale: Locale }) {
  const { line, message, first, locale } = props;
  const span = line.messages.length;
  return (
    <tr>
      {first && (
        <>
          <td rowspan={span}>{line.lineNumber}</td>
          <td rowspan={span}>{line.endToEndId}</td>
          <td rowspan={span}>{line.creditorName}</td>
          <td rowspan={span} class="num">
            {amountOf(line, locale)}
          </td>
          <td rowspan={span}>{line.status}</td>
        </>
      )}
      <td>{reason(message, locale)}</td>
      <td>{lineAction(message, locale)}</td>
    </tr>
  );
}
