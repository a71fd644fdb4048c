// The accountant's report of a payment file's refused lines: per line, the ERP line, the bank's
// reason in its own words and what a person should do (from the one line-message model,
// src/domain/line-message.ts). It goes to the reports folder and into the alert e-mail, never
// into the ERP's own files (pain.002 and the status CSV carry codes and the bank's text only).
import type { LineMessage } from '../../domain/line-message.js';
import { escapeHtml } from './escape.js';
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

export function renderRefusedLinesHtml(r: RefusedLinesReport): string {
  const rows = r.lines.flatMap((line) =>
    line.messages.map(
      (m, i) =>
        `<tr>${
          i === 0
            ? `<td rowspan="${line.messages.length}">${line.lineNumber}</td><td rowspan="${line.messages.length}">${escapeHtml(line.endToEndId)}</td><td rowspan="${line.messages.length}">${escapeHtml(line.creditorName)}</td><td rowspan="${line.messages.length}" class="num">${escapeHtml(line.amount)} ${escapeHtml(line.currency)}</td><td rowspan="${line.messages.length}">${escapeHtml(line.status)}</td>`
            : ''
        }<td>${escapeHtml(reason(m))}</td><td>${escapeHtml(m.action)}</td></tr>`,
    ),
  );
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title(r))}</title><style>${REPORT_CSS}</style></head><body>`,
    `<h1>${escapeHtml(title(r))}</h1>`,
    `<p>as of ${escapeHtml(r.asOf)}</p>`,
    '<table><thead><tr><th>Line</th><th>ERP reference</th><th>Creditor</th><th>Amount</th><th>Status</th><th>The bank’s reason</th><th>What to do</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table>`,
    '</body></html>',
    '',
  ].join('\n');
}
