// The reconciliation report as settle rendered it before the template engine: string
// concatenation with escapeHtml by hand. Kept, frozen, only as the baseline of the templates
// bench (bench/templates.ts); the report itself is src/formats/report/html.tsx.
import { formatAmount } from '../../src/domain/money.js';
import { FINDING_TYPES, type Finding, type FindingType } from '../../src/domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../src/domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../src/domain/reconcile/summary.js';
import { displayMoney } from '../../src/domain/display.js';
import type { Money } from '../../src/domain/money.js';
import { translate } from '../../src/i18n/index.js';
import { COLUMNS_OF } from '../../src/formats/report/columns.js';
import { reportFormats } from '../../src/formats/report/report-formats.js';
import { REPORT_CSS } from '../../src/formats/report/html-style.js';
import { groupFindings, type FindingsHtmlOptions, type ReportMeta } from '../../src/formats/report/html.js';
import { formatInZone } from '../../src/domain/zoned-time.js';

const money = (m: Money | undefined): string | undefined => (m ? displayMoney(m) : undefined);
const english = reportFormats('en');

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const e = (text: string): string => text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

export function renderFindingsHtmlByHand(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions = {},
): string {
  const limit = options.infoRowLimit ?? 1000;
  const period = meta.from || meta.to ? `${meta.from ?? '…'} to ${meta.to ?? '…'}` : 'all open items';
  const title = `Reconciliation report: ${meta.company}`;
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}, ${e(period)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${e(title)}</h1>`,
    `<p class="meta">Period: ${e(period)} · Generated ${e(formatInZone(meta.generatedAt, meta.timeZone ?? 'UTC', { zone: 'abbreviation' }))} · Run <span class="ref">${e(meta.runId)}</span></p>`,
    ...comparedLine(meta),
    '</header>',
    '<main>',
  );
  out.push(...summarySection(summary));
  if (options.balances) out.push(...balancesSection(options.balances));
  if (options.aging) out.push(...agingSection(options.aging));
  const { byType, acknowledged } = groupFindings(findings);
  for (const entry of summary.byType) {
    const rows = byType.get(entry.type);
    if (!rows || rows.length === 0) continue;
    const info = FINDING_TYPES[entry.type];
    const shown = entry.needingPerson > 0 ? rows.length : Math.min(rows.length, limit);
    out.push(...typeSection(entry.type, info.title, info.action, rows, shown));
  }
  if (acknowledged.length > 0) out.push(...acknowledgedSection(acknowledged, meta.timeZone ?? 'UTC'));
  out.push('</main>', '</body>', '</html>', '');
  return out.join('\n');
}

function comparedLine(meta: ReportMeta): string[] {
  const c = meta.compared;
  if (!c || !meta.from || !meta.to) return [];
  const accounts = c.accounts.length > 0 ? c.accounts.map(iban).join(', ') : 'no account';
  const since = c.since ? ` Go-live ${c.since}: nothing sent or booked before it is reported.` : '';
  const receivables =
    c.receivables === undefined
      ? ''
      : ` Credits were matched to ${c.receivables} open receivable${c.receivables === 1 ? '' : 's'}.`;
  return [
    `<p class="meta compared">Compared ${c.payments} payment${c.payments === 1 ? '' : 's'} for execution from ${e(meta.from)} to ${e(meta.to)} ` +
      `with ${c.bookings} booking${c.bookings === 1 ? '' : 's'} dated ${e(meta.from)} to ${e(meta.to)} on ${accounts}; ` +
      `matching also looked ${c.windowDays} day${c.windowDays === 1 ? '' : 's'} either side.${e(receivables)}${e(since)}</p>`,
  ];
}

/** Escapes a text and wraps every IBAN in it so it never breaks inside the number. */
function keepIbansWhole(text: string): string {
  return text
    .split(/\b([A-Z]{2}\d{2}[A-Z0-9]{8,30})\b/)
    .map((part, i) => (i % 2 === 1 ? iban(part) : e(part)))
    .join('');
}

/** An IBAN in groups of four that never breaks inside the number. */
function iban(text: string): string {
  return `<span class="iban">${e(text.replace(/(.{4})(?=.)/g, '$1\u00a0'))}</span>`;
}

function balancesSection(rows: readonly AccountBalance[]): string[] {
  const out: string[] = [
    '<section aria-labelledby="balances">',
    '<h2 id="balances">Balances per account</h2>',
    '<p class="action">Closing = opening − booked out + booked in, over the period; it should equal the bank’s closing balance. A difference means a booking is missing or doubled.</p>',
    '<table>',
    '<caption>Balances per account and currency over the period</caption>',
    '<thead><tr><th scope="col">Account</th><th scope="col">Currency</th>' +
      [
        'Opening balance',
        'Sent by settle',
        'Booked out',
        'Booked in',
        'Closing balance',
        'Bank’s closing balance',
        'Difference',
      ]
        .map((h) => `<th scope="col" class="num">${h}</th>`)
        .join('') +
      '</tr></thead>',
    '<tbody>',
  ];
  for (const b of rows) {
    const cells = [b.opening, b.sent, b.bookedOut, b.bookedIn, b.closing, b.reported, b.difference].map(
      (m) => `<td class="num">${m ? e(formatAmount(m)) : '—'}</td>`,
    );
    const off = b.difference && b.difference.minor !== 0n ? ' class="off"' : '';
    out.push(`<tr${off}><th scope="row">${iban(b.accountIban)}</th><td>${e(b.currency)}</td>${cells.join('')}</tr>`);
  }
  if (rows.length === 0)
    out.push('<tr><td colspan="9">No account had payments, bookings or statements in the period.</td></tr>');
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function agingSection(rows: readonly AgedItems[]): string[] {
  const out: string[] = [
    '<section aria-labelledby="aging">',
    '<h2 id="aging">Open payments by age</h2>',
    '<p class="action">Payments sent but not booked (or without an answer), by business days after their execution date.</p>',
    '<table>',
    '<caption>Open payments by business days after execution</caption>',
    '<thead><tr><th scope="col">Business days after execution</th><th scope="col" class="num">Count</th><th scope="col" class="num">Total by currency</th></tr></thead>',
    '<tbody>',
  ];
  for (const a of rows) {
    const totals = a.totals.map((m) => e(`${formatAmount(m)} ${m.currency}`)).join('<br>');
    out.push(
      `<tr><th scope="row">${e(a.bucket)}</th><td class="num">${a.count}</td><td class="num">${totals}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function acknowledgedSection(rows: readonly Finding[], timeZone: string): string[] {
  const heading = rows.some((f) => f.acknowledged?.kind === 'confirmed')
    ? 'Acknowledged and confirmed'
    : 'Acknowledged';
  const out: string[] = [
    '<section aria-labelledby="acknowledged">',
    `<h2 id="acknowledged">${heading} (${rows.length})</h2>`,
    '<p class="action">A person looked at these and recorded why they need nothing more (or confirmed a proposed match); each comes back as needing a person if its facts change (settle findings reopen ID brings it back by hand).</p>',
    '<table>',
    `<caption>${heading}: ${rows.length} finding${rows.length === 1 ? '' : 's'}</caption>`,
    '<thead><tr><th scope="col">Finding</th><th scope="col">Creditor / counterparty</th><th scope="col" class="num">Amount</th><th scope="col">Decided by</th><th scope="col">When</th><th scope="col">Why</th><th scope="col">What it was</th><th scope="col">Id</th></tr></thead>',
    '<tbody>',
  ];
  for (const f of rows) {
    const ack = f.acknowledged!;
    out.push(
      `<tr><th scope="row">${ack.kind === 'confirmed' ? 'Confirmed: ' : ''}${e(FINDING_TYPES[f.type].title)}</th><td class="text">${e(f.counterparty ?? f.accountIban ?? '')}</td>` +
        `<td class="num">${e(money(f.amount ?? f.bookedAmount) ?? '')}</td><td class="text">${e(ack.by)}</td>` +
        `<td class="date">${e(formatInZone(ack.at, timeZone, { zone: 'abbreviation' }))}</td><td class="text">${e(ack.reason ?? '')}</td>` +
        `<td class="text">${e(f.message)}</td><td class="id ref">${e(f.id ?? '')}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function summarySection(summary: ReconcileSummary): string[] {
  const out: string[] = ['<section aria-labelledby="summary">', '<h2 id="summary">Summary</h2>'];
  const acked =
    summary.acknowledged > 0
      ? ` <a href="#acknowledged">${summary.acknowledged} acknowledged</a> earlier and listed at the end.`
      : '';
  if (summary.needingPerson > 0) {
    out.push(
      `<p class="verdict needs">${summary.needingPerson} of ${summary.findings} findings need a person.${acked}</p>`,
    );
  } else {
    out.push(
      `<p class="verdict clear">Nothing needs a person: ${summary.findings} findings, all informational.${acked}</p>`,
    );
  }
  out.push(
    '<table>',
    '<caption>Findings by type, with totals by currency</caption>',
    '<thead><tr><th scope="col">Finding</th><th scope="col">Severity</th><th scope="col" class="num">Count</th><th scope="col" class="num">Need a person</th><th scope="col" class="num">Total by currency</th></tr></thead>',
    '<tbody>',
  );
  for (const entry of summary.byType) {
    const name = entry.count > 0 ? `<a href="#${entry.type}">${e(entry.title)}</a>` : e(entry.title);
    const totals = entry.totals.map((m) => e(`${formatAmount(m)} ${m.currency}`)).join('<br>');
    out.push(
      `<tr${entry.count === 0 ? ' class="zero"' : ''}><th scope="row">${name}</th><td><span class="badge ${entry.severity}">${entry.severity}</span></td>` +
        `<td class="num">${entry.count}</td><td class="num">${entry.needingPerson}</td><td class="num">${totals}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function typeSection(
  type: FindingType,
  title: string,
  action: string,
  rows: readonly Finding[],
  shown: number,
): string[] {
  const columns = COLUMNS_OF[type];
  const out: string[] = [
    `<section aria-labelledby="${type}">`,
    `<h2 id="${type}">${e(title)} (${rows.length})</h2>`,
    `<p class="action"><strong>What to do:</strong> ${e(action)}</p>`,
    '<table>',
    `<caption>${e(title)}: ${rows.length} finding${rows.length === 1 ? '' : 's'}</caption>`,
    `<thead><tr>${columns.map((c) => `<th scope="col"${c.kind === 'num' ? ' class="num"' : ''}>${e(translate('en', c.head))}</th>`).join('')}</tr></thead>`,
    '<tbody>',
  ];
  for (let i = 0; i < shown; i++) {
    const finding = rows[i]!;
    const cells = columns.map((c, n) => {
      const raw = c.cell(finding, english) ?? '';
      const text = c.kind === 'iban' || c.kind === 'party' ? keepIbansWhole(raw) : e(raw);
      // The first column names the row, so it is the row header.
      if (n === 0) return `<th scope="row" class="${c.kind}">${text}</th>`;
      return `<td class="${c.kind}">${text}</td>`;
    });
    out.push(`<tr>${cells.join('')}</tr>`);
  }
  out.push('</tbody>', '</table>');
  if (shown < rows.length)
    out.push(`<p class="truncated">Showing the first ${shown} of ${rows.length}; the CSV report lists every one.</p>`);
  out.push('</section>');
  return out;
}
