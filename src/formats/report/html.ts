// The finance report as one self-contained HTML page: summary counts and totals by currency
// first, then one table per finding type (the types that need a person first). No scripts and
// no external assets; every text is escaped; tables have captions and header scopes.
import type { LocalDate } from '../../domain/local-date.js';
import { formatAmount, type Money } from '../../domain/money.js';
import { FINDING_TYPES, type Finding, type FindingType } from '../../domain/reconcile/findings.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { escapeHtml as e } from './escape.js';
import { REPORT_CSS } from './html-style.js';
import { timeInZone } from './zone-time.js';

export interface ReportMeta {
  company: string;
  runId: string;
  from?: LocalDate;
  to?: LocalDate;
  generatedAt: Date;
  /** The company's time zone: every time on the page is shown in it. Default UTC. */
  timeZone?: string;
  /** What the run compared, said in the header. */
  compared?: ComparedScope;
}

export interface ComparedScope {
  /** Payments executed in the period. */
  payments: number;
  /** Bookings dated in the period. */
  bookings: number;
  accounts: readonly string[];
  /** Days beyond the period on both sides that matching looked at. */
  windowDays: number;
  /** The company's go-live date, when set. */
  since?: LocalDate;
}

export interface FindingsHtmlOptions {
  /**
   * Types that need no person (matched, awaiting booking, rejected and re-sent, date
   * differences) list at most this many rows; the CSV always has every row. Default 1000.
   * Types that need a person are always listed in full.
   */
  infoRowLimit?: number;
}

interface Column {
  head: string;
  kind: 'text' | 'id' | 'num' | 'date';
  cell: (f: Finding) => string | undefined;
}

const money = (m: Money | undefined): string | undefined => (m ? `${formatAmount(m)} ${m.currency}` : undefined);

const COL = {
  payments: { head: 'Payment', kind: 'id', cell: (f) => f.paymentIds.join(' ') },
  e2e: { head: 'End-to-end id', kind: 'id', cell: (f) => f.endToEndId },
  bulk: { head: 'Bulk', kind: 'id', cell: (f) => f.bulkId },
  account: { head: 'Account', kind: 'id', cell: (f) => f.accountIban },
  counterparty: { head: 'Creditor / counterparty', kind: 'text', cell: (f) => f.counterparty },
  executionDate: { head: 'Execution date', kind: 'date', cell: (f) => f.executionDate },
  bookingDate: { head: 'Booking date', kind: 'date', cell: (f) => f.bookingDate },
  days: { head: 'Days', kind: 'num', cell: (f) => f.dateDifferenceDays?.toString() },
  amount: { head: 'Amount', kind: 'num', cell: (f) => money(f.amount) },
  booked: { head: 'Booked', kind: 'num', cell: (f) => money(f.bookedAmount) },
  difference: { head: 'Difference', kind: 'num', cell: (f) => money(f.amountDifference) },
  rule: { head: 'Rule', kind: 'text', cell: (f) => f.rule },
  transaction: { head: 'Transaction', kind: 'id', cell: (f) => f.transactionId },
  reference: { head: 'Reference', kind: 'text', cell: (f) => f.reference },
  due: { head: 'Due / expires', kind: 'text', cell: (f) => f.due },
  message: { head: 'Why', kind: 'text', cell: (f) => f.message },
} as const satisfies Record<string, Column>;

const MATCHED: readonly Column[] = [
  COL.payments,
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.bookingDate,
  COL.days,
  COL.amount,
  COL.booked,
  COL.difference,
  COL.rule,
  COL.transaction,
  COL.message,
];
const OPEN: readonly Column[] = [
  COL.payments,
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.amount,
  COL.reference,
  COL.due,
  COL.message,
];

const COLUMNS_OF: Record<FindingType, readonly Column[]> = {
  not_booked: OPEN,
  amount_difference: MATCHED,
  booked_despite_rejection: MATCHED,
  unknown_outcome: OPEN,
  rejected: OPEN,
  unexpected_debit: [
    COL.transaction,
    COL.account,
    COL.bookingDate,
    COL.counterparty,
    COL.booked,
    COL.e2e,
    COL.reference,
    COL.message,
  ],
  statement_gap: [COL.account, COL.reference, COL.difference, COL.message],
  approval_link_expired: [COL.reference, COL.bulk, COL.amount, COL.due, COL.message],
  approval_waiting: [COL.reference, COL.bulk, COL.amount, COL.due, COL.message],
  consent_expired: [COL.reference, COL.due, COL.message],
  consent_expiring: [COL.reference, COL.due, COL.message],
  date_difference: MATCHED,
  awaiting_booking: OPEN,
  rejected_resent: OPEN,
  matched: MATCHED,
};

export function renderFindingsHtml(
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
    `<p class="meta">Period: ${e(period)} · Generated ${e(timeInZone(meta.generatedAt, meta.timeZone ?? 'UTC'))} · Run <span class="ref">${e(meta.runId)}</span></p>`,
    ...comparedLine(meta),
    '</header>',
    '<main>',
  );
  out.push(...summarySection(summary));
  const byType = new Map<FindingType, Finding[]>();
  const acknowledged: Finding[] = [];
  for (const finding of findings) {
    if (finding.acknowledged) {
      acknowledged.push(finding);
      continue;
    }
    const list = byType.get(finding.type);
    if (list) list.push(finding);
    else byType.set(finding.type, [finding]);
  }
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
  return [
    `<p class="meta compared">Compared ${c.payments} payment${c.payments === 1 ? '' : 's'} for execution from ${e(meta.from)} to ${e(meta.to)} ` +
      `with ${c.bookings} booking${c.bookings === 1 ? '' : 's'} dated ${e(meta.from)} to ${e(meta.to)} on ${accounts}; ` +
      `matching also looked ${c.windowDays} day${c.windowDays === 1 ? '' : 's'} either side.${e(since)}</p>`,
  ];
}

/** An IBAN in groups of four that never breaks inside the number. */
export function iban(text: string): string {
  return `<span class="iban">${e(text.replace(/(.{4})(?=.)/g, '$1\u00a0'))}</span>`;
}

function acknowledgedSection(rows: readonly Finding[], timeZone: string): string[] {
  const out: string[] = [
    '<section aria-labelledby="acknowledged">',
    `<h2 id="acknowledged">Acknowledged (${rows.length})</h2>`,
    '<p class="action">A person looked at these and recorded why they need nothing more; each comes back as needing a person if its facts change (settle findings reopen ID brings it back by hand).</p>',
    '<table>',
    `<caption>Acknowledged: ${rows.length} finding${rows.length === 1 ? '' : 's'}</caption>`,
    '<thead><tr><th scope="col">Finding</th><th scope="col">Creditor / counterparty</th><th scope="col" class="num">Amount</th><th scope="col">Acknowledged by</th><th scope="col">When</th><th scope="col">Why</th><th scope="col">What it was</th><th scope="col">Id</th></tr></thead>',
    '<tbody>',
  ];
  for (const f of rows) {
    const ack = f.acknowledged!;
    out.push(
      `<tr><th scope="row">${e(FINDING_TYPES[f.type].title)}</th><td class="text">${e(f.counterparty ?? f.accountIban ?? '')}</td>` +
        `<td class="num">${e(money(f.amount ?? f.bookedAmount) ?? '')}</td><td class="text">${e(ack.by)}</td>` +
        `<td class="date">${e(timeInZone(ack.at, timeZone))}</td><td class="text">${e(ack.reason ?? '')}</td>` +
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
    `<thead><tr>${columns.map((c) => `<th scope="col"${c.kind === 'num' ? ' class="num"' : ''}>${e(c.head)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
  ];
  for (let i = 0; i < shown; i++) {
    const finding = rows[i]!;
    const cells = columns.map((c, n) => {
      const text = e(c.cell(finding) ?? '');
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
