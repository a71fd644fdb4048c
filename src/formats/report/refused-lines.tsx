// The accountant's report of a payment file's refused lines: per line, the ERP line, the bank's
// reason in its own words and what a person should do (from the one line-message model,
// src/domain/line-message.ts). It goes to the reports folder and into the alert e-mail, never
// into the ERP's own files (pain.002 and the status CSV carry codes and the bank's text only).
import type { LineMessage } from '../../domain/line-message.js';
import { Document, InlineStyle, render, type Html } from '../../html/index.js';
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
}

const NO_LINE = 'the bank named no line';

/** "The bank's reason" as a person reads it, saying plainly when the bank named no line. */
function reason(m: LineMessage): string {
  const text = m.bankText.replace(` (${NO_LINE})`, '');
  const plain = m.bankText.includes(NO_LINE) ? ` The bank named no line: it refused the whole bulk.` : '';
  return `${m.code}: ${text}${plain}`;
}

function title(r: RefusedLinesReport): string {
  return `${r.company}: ${r.lines.length} line(s) of ${r.fileName} were not paid`;
}

export function renderRefusedLinesText(r: RefusedLinesReport): string {
  return [title(r), `as of ${r.asOf}`, '', refusedLinesBody(r.lines)].join('\n');
}

/** The lines alone, for an e-mail that has its own subject. */
export function refusedLinesBody(lines: readonly RefusedLine[]): string {
  const out: string[] = [];
  for (const line of lines) {
    out.push(
      `Line ${line.lineNumber} (${line.endToEndId}), ${line.creditorName}, ${line.amount} ${line.currency}: ${line.status}`,
    );
    for (const m of line.messages) {
      out.push(`  The bank's reason: ${reason(m)}`);
      out.push(`  What to do:        ${m.action}`);
    }
    out.push('');
  }
  return out.join('\n');
}

export function renderRefusedLinesHtml(r: RefusedLinesReport): Html {
  return render(
    <Document lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{title(r)}</title>
        <InlineStyle css={REPORT_CSS} />
      </head>
      <body>
        <h1>{title(r)}</h1>
        <p>as of {r.asOf}</p>
        <table>
          <thead>
            <tr>
              {['Line', 'ERP reference', 'Creditor', 'Amount', 'Status', 'The bank’s reason', 'What to do'].map((h) => (
                <th>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.lines.map((line) => line.messages.map((m, i) => <MessageRow line={line} message={m} first={i === 0} />))}
          </tbody>
        </table>
      </body>
    </Document>,
  );
}

/** One of a line's messages; the first carries the line's facts, spanning all its messages. */
function MessageRow({ line, message, first }: { line: RefusedLine; message: LineMessage; first: boolean }) {
  const span = line.messages.length;
  return (
    <tr>
      {first && (
        <>
          <td rowspan={span}>{line.lineNumber}</td>
          <td rowspan={span}>{line.endToEndId}</td>
          <td rowspan={span}>{line.creditorName}</td>
          <td rowspan={span} class="num">
            {line.amount} {line.currency}
          </td>
          <td rowspan={span}>{line.status}</td>
        </>
      )}
      <td>{reason(message)}</td>
      <td>{message.action}</td>
    </tr>
  );
}
