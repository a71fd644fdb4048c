// The console's Payments page (its search form and a page of payments found) as settle rendered
// it before the template engine: strings with `esc` by hand, the old `table()` and pager. Kept,
// frozen, only as the baseline of the templates bench (bench/templates.ts); the page itself is
// src/server/console/pages/payments.tsx.
import { formatAmount } from '../../src/domain/money.js';
import { PAYMENT_STATES } from '../../src/domain/states.js';
import { showBidiControls } from '../../src/html/index.js';
import type { PageRequest } from '../../src/server/console/page.js';
import { hasRole, isPayroll, payrollHidden, withQuery } from '../../src/server/console/pages/parts.js';
import type { ConsoleDeps } from '../../src/server/console/page.js';
import type { StoredPayment } from '../../src/store/index.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const byHand = (text: string): string => showBidiControls(text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch));

function table(caption: string, headers: readonly string[], rows: readonly string[][]): string {
  const head = headers.map((h) => `<th scope="col">${byHand(h)}</th>`).join('');
  const body = rows.length
    ? rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${headers.length}">none</td></tr>`;
  return `<table>\n<caption>${byHand(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const link = (href: string, text: string) => `<a href="${byHand(href)}">${byHand(text)}</a>`;

function pager(path: string, req: PageRequest, next: string | undefined): string {
  const first = req.query.has('after') ? link(withQuery(path, req, { after: undefined }), 'First page') : '';
  const more = next ? link(withQuery(path, req, { after: next }), 'Next page') : '';
  return first || more ? `<nav aria-label="pages">${[first, more].filter(Boolean).join(' · ')}</nav>` : '';
}

function field(req: PageRequest, name: string, label: string, type = 'text'): string {
  const value = req.query.get(name) ?? '';
  return `<label for="q-${name}">${byHand(label)}</label> <input id="q-${name}" name="${name}" type="${type}" value="${byHand(value)}">`;
}

function searchForm(req: PageRequest): string {
  const state = req.query.get('state') ?? '';
  const options = ['', ...PAYMENT_STATES]
    .map((s) => `<option value="${byHand(s)}"${s === state ? ' selected' : ''}>${byHand(s || 'any')}</option>`)
    .join('');
  return [
    '<form method="get" action="/console/payments" role="search">',
    `<input type="hidden" name="company" value="${byHand(req.company)}">`,
    field(req, 'e2e', 'End-to-end id'),
    field(req, 'ref', 'ERP / creditor reference'),
    field(req, 'creditor', 'Creditor name (start) or IBAN'),
    field(req, 'amount', 'Amount (exact, e.g. 1234.50)'),
    field(req, 'currency', 'Currency'),
    field(req, 'from', 'Execution date from', 'date'),
    field(req, 'to', 'to', 'date'),
    `<label for="q-state">State</label> <select id="q-state" name="state">${options}</select>`,
    '<button type="submit">Search</button>',
    '</form>',
  ].join('\n');
}

export function paymentsFoundByHand(
  deps: ConsoleDeps,
  req: PageRequest,
  rows: readonly StoredPayment[],
  next: string | undefined,
): string {
  const href = (path: string) => `${path}?${new URLSearchParams({ company: req.company }).toString()}`;
  const cells = rows.map((p) => {
    const hidden = isPayroll(deps, p) && !hasRole(req, 'payroll');
    return [
      byHand(p.requestedExecutionDate),
      link(href(`/console/payments/${encodeURIComponent(p.id)}`), p.endToEndId),
      byHand(p.creditorReference ?? ''),
      hidden ? payrollHidden() : byHand(p.creditorName),
      hidden ? payrollHidden() : byHand(p.creditorIban),
      hidden ? payrollHidden() : `${byHand(formatAmount(p.amount))} ${byHand(p.amount.currency)}`,
      byHand(p.state),
    ];
  });
  return [
    searchForm(req),
    table(
      'Payments found, latest execution date first',
      ['Execution date', 'End-to-end id', 'Reference', 'Creditor', 'Creditor IBAN', 'Amount', 'State'],
      cells,
    ),
    pager('/console/payments', req, next),
  ].join('\n');
}
