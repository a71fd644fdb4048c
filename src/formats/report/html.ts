// The finance report as one self-contained HTML page: summary counts and totals by currency
// first, then one table per finding type (the types that need a person first). No scripts and
// no external assets; every text is escaped; tables have captions and header scopes.
import type { LocalDate } from '../../domain/local-date.js';
import { formatAmount, type Money } from '../../domain/money.js';
import { FINDING_TYPES, type Finding, type FindingType } from '../../domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { escapeHtml as e } from './escape.js';
import { REPORT_CSS } from './html-style.js';
import { formatInZone } from '../../domain/zoned-time.js';

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
  /** Open receivables credits were matched to, when the company keeps them in settle. */
  receivables?: number;
}

export interface FindingsHtmlOptions {
  /**
   * Types that need no person (matched, awaiting booking, rejected and re-sent, date
   * differences) list at most this many rows; the CSV always has every row. Default 1000.
   * Types that need a person are always listed in full.
   */
  infoRowLimit?: number;
  /** Balances per account and currency, shown after the summary. */
  balances?: readonly AccountBalance[];
  /** Open payments by age, shown after the balances. */
  aging?: readonly AgedItems[];
}

interface Column {
  head: string;
  /** id: settle's or the bank's internal ids, shown last and small; iban and party keep account numbers whole. */
  kind: 'text' | 'id' | 'num' | 'date' | 'iban' | 'party' | 'note';
  cell: (f: Finding) => string | undefined;
}

const money = (m: Money | undefined): string | undefined => (m ? `${formatAmount(m)} ${m.currency}` : undefined);

/** ISO 20022 transaction status codes in words, with the code kept beside them. */
const STATUS_WORDS: Record<string, string> = {
  RCVD: 'Received',
  PDNG: 'Pending',
  ACTC: 'Accepted (technical)',
  ACCP: 'Accepted',
  ACFC: 'Accepted, funds checked',
  ACWC: 'Accepted with change',
  ACSP: 'Accepted, settlement in progress',
  ACSC: 'Settled',
  ACCC: 'Credited to the creditor',
  PART: 'Partly accepted',
  RJCT: 'Rejected',
  CANC: 'Cancelled',
};

/** A status code as words with the code beside it ("Rejected (RJCT)"); other references as they are. */
export function statusText(reference: string | undefined): string | undefined {
  if (reference === undefined) return undefined;
  const word = STATUS_WORDS[reference];
  return word ? `${word} (${reference})` : reference;
}

const COL = {
  e2e: { head: 'ERP reference', kind: 'text', cell: (f) => f.endToEndId },
  counterparty: { head: 'Creditor / counterparty', kind: 'party', cell: (f) => f.counterparty },
  account: { head: 'Account', kind: 'iban', cell: (f) => f.accountIban },
  executionDate: { head: 'Execution date', kind: 'date', cell: (f) => f.executionDate },
  bookingDate: { head: 'Booking date', kind: 'date', cell: (f) => f.bookingDate },
  days: { head: 'Days', kind: 'num', cell: (f) => f.dateDifferenceDays?.toString() },
  amount: { head: 'Amount', kind: 'num', cell: (f) => money(f.amount) },
  booked: { head: 'Booked', kind: 'num', cell: (f) => money(f.bookedAmount) },
  difference: { head: 'Difference', kind: 'num', cell: (f) => money(f.amountDifference) },
  rule: { head: 'Rule', kind: 'text', cell: (f) => f.rule },
  evidence: {
    head: 'Rule and evidence (score)',
    kind: 'note',
    cell: (f) =>
      f.evidence === undefined
        ? f.rule
        : `${f.rule ? `${f.rule}: ` : ''}${f.evidence.replace(/; score (\d+)$/, ' (score $1)')}`,
  },
  erpRef: { head: 'ERP reference / invoice', kind: 'text', cell: (f) => f.endToEndId ?? f.invoice },
  invoice: { head: 'Invoice', kind: 'text', cell: (f) => f.invoice },
  payer: { head: 'Payer', kind: 'party', cell: (f) => f.counterparty },
  creditorReference: { head: 'KID / RF', kind: 'text', cell: (f) => f.creditorReference },
  remittance: { head: 'Remittance', kind: 'note', cell: (f) => f.remittance },
  expectedDate: { head: 'Execution / due date', kind: 'date', cell: (f) => f.executionDate ?? f.due },
  received: { head: 'Received', kind: 'num', cell: (f) => money(f.bookedAmount) },
  bookedDue: {
    head: 'Booked (invoice due)',
    kind: 'text',
    cell: (f) => (f.due ? `${f.bookingDate ?? ''} (${f.due})` : f.bookingDate),
  },
  findingId: { head: 'Finding', kind: 'id', cell: (f) => f.id },
  reference: { head: 'Status / reference', kind: 'text', cell: (f) => statusText(f.reference) },
  due: { head: 'Due / expires', kind: 'text', cell: (f) => f.due },
  message: { head: 'Why', kind: 'text', cell: (f) => f.message },
  /** The message with the typed exception reason in front, where there is one. */
  why: {
    head: 'Why',
    kind: 'text',
    cell: (f) => {
      const reason = exceptionText(f);
      return reason ? `${reason}: ${f.message}` : f.message;
    },
  },
  payments: { head: 'settle payment', kind: 'id', cell: (f) => f.paymentIds.join(' ') },
  bulk: { head: 'settle bulk', kind: 'id', cell: (f) => f.bulkId },
  transaction: { head: 'Bank transaction', kind: 'id', cell: (f) => f.transactionId },
} as const satisfies Record<string, Column>;

/** Exception reasons in words; an under-payment of a receivable is provisional. */
function exceptionText(f: Finding): string | undefined {
  switch (f.exception) {
    case 'over_amount':
      return 'Over amount';
    case 'under_amount':
      return f.invoice ? 'Under amount (provisional)' : 'Under amount';
    case 'data_mismatch':
      return 'Data mismatch';
    case 'missing_after_deadline':
      return 'Missing after deadline';
    default:
      return undefined;
  }
}

const MATCHED: readonly Column[] = [
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.bookingDate,
  COL.days,
  COL.amount,
  COL.booked,
  COL.difference,
  COL.evidence,
  COL.message,
  COL.payments,
  COL.transaction,
];
const OPEN: readonly Column[] = [
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.amount,
  COL.reference,
  COL.due,
  COL.message,
  COL.payments,
];

const CREDIT: readonly Column[] = [
  COL.payer,
  COL.creditorReference,
  COL.remittance,
  COL.invoice,
  COL.bookedDue,
  COL.received,
  COL.difference,
  COL.evidence,
  COL.why,
  COL.transaction,
];
const PROPOSED: readonly Column[] = [
  COL.erpRef,
  COL.counterparty,
  COL.expectedDate,
  COL.bookingDate,
  COL.amount,
  COL.booked,
  COL.difference,
  COL.evidence,
  COL.message,
  COL.findingId,
  COL.transaction,
];

const COLUMNS_OF: Record<FindingType, readonly Column[]> = {
  not_booked: OPEN,
  amount_difference: MATCHED,
  booked_despite_rejection: MATCHED,
  unknown_outcome: OPEN,
  rejected: OPEN,
  unexpected_debit: [
    COL.counterparty,
    COL.account,
    COL.bookingDate,
    COL.booked,
    COL.e2e,
    COL.reference,
    COL.message,
    COL.transaction,
  ],
  match_proposed: PROPOSED,
  credit_over: CREDIT,
  unmatched_credit: [
    COL.payer,
    COL.creditorReference,
    COL.remittance,
    COL.bookingDate,
    COL.received,
    COL.message,
    COL.account,
    COL.findingId,
    COL.transaction,
  ],
  statement_gap: [COL.account, COL.reference, COL.difference, COL.message],
  approval_link_expired: [COL.reference, COL.amount, COL.due, COL.message, COL.bulk],
  approval_waiting: [COL.reference, COL.amount, COL.due, COL.message, COL.bulk],
  consent_expired: [COL.reference, COL.due, COL.message],
  consent_expiring: [COL.reference, COL.due, COL.message],
  date_difference: MATCHED,
  credit_partial: CREDIT,
  awaiting_booking: OPEN,
  rejected_resent: OPEN,
  matched: MATCHED,
  credit_matched: CREDIT,
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
    `<p class="meta">Period: ${e(period)} · Generated ${e(formatInZone(meta.generatedAt, meta.timeZone ?? 'UTC', { zone: 'abbreviation' }))} · Run <span class="ref">${e(meta.runId)}</span></p>`,
    ...comparedLine(meta),
    '</header>',
    '<main>',
  );
  out.push(...summarySection(summary));
  if (options.balances) out.push(...balancesSection(options.balances));
  if (options.aging) out.push(...agingSection(options.aging));
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
export function iban(text: string): string {
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
    `<thead><tr>${columns.map((c) => `<th scope="col"${c.kind === 'num' ? ' class="num"' : ''}>${e(c.head)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
  ];
  for (let i = 0; i < shown; i++) {
    const finding = rows[i]!;
    const cells = columns.map((c, n) => {
      const raw = c.cell(finding) ?? '';
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
