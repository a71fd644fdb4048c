// The console's Payments page (its search form and a page of payments found) as settle rendered
// it before the template engine: strings with `esc` by hand, the old `table()` and pager. Kept
// only as the baseline of the templates bench (bench/templates.ts); the page itself is
// src/server/console/pages/payments.tsx. Its way of building HTML stays as it was; its text follows
// the page (the same catalogue sentences, amounts through the same i18n formatter, the same
// payroll rule), so the bench compares like with like (test/bench/templates-same-text.test.ts).
import { PAYMENT_STATES } from '../../src/domain/states.js';
import { showBidiControls } from '../../src/html/index.js';
import { currentLocale, format, t } from '../../src/i18n/index.js';
import type { PageRequest } from '../../src/server/console/page.js';
import { day, href, lineStateCell, mayShow, payrollHidden, withQuery } from '../../src/server/console/pages/parts.js';
import type { ConsoleDeps } from '../../src/server/console/page.js';
import type { StoredPayment } from '../../src/store/index.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const byHand = (text: string): string => showBidiControls(text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch));

function table(caption: string, headers: readonly string[], rows: readonly string[][]): string {
  const head = headers.map((h) => `<th scope="col">${byHand(h)}</th>`).join('');
  const body = rows.length
    ? rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${headers.length}">${byHand(t('payments.none'))}</td></tr>`;
  return `<table>\n<caption>${byHand(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const link = (to: string, text: string) => `<a href="${byHand(to)}">${byHand(text)}</a>`;

function pager(path: string, req: PageRequest, next: string | undefined): string {
  const first = req.query.has('after') ? link(withQuery(path, req, { after: undefined }), t('console.firstPage')) : '';
  const more = next ? link(withQuery(path, req, { after: next }), t('console.nextPage')) : '';
  return first || more
    ? `<nav aria-label="${byHand(t('console.pages'))}">${[first, more].filter(Boolean).join(' · ')}</nav>`
    : '';
}

function field(req: PageRequest, name: string, label: string, type = 'text'): string {
  const value = req.query.get(name) ?? '';
  return `<label for="q-${name}">${byHand(label)}</label> <input id="q-${name}" name="${name}" type="${type}" value="${byHand(value)}">`;
}

function searchForm(req: PageRequest): string {
  const state = req.query.get('state') ?? '';
  const options = ['', ...PAYMENT_STATES]
    .map(
      (s) =>
        `<option value="${byHand(s)}"${s === state ? ' selected' : ''}>${byHand(s || t('payments.search.anyState'))}</option>`,
    )
    .join('');
  return [
    '<form method="get" action="/console/payments" role="search">',
    `<input type="hidden" name="company" value="${byHand(req.company)}">`,
    field(req, 'e2e', t('payments.search.e2e')),
    field(req, 'ref', t('payments.search.ref')),
    field(req, 'creditor', t('payments.search.creditor')),
    field(req, 'amount', t('payments.search.amount')),
    field(req, 'currency', t('payments.search.currency')),
    field(req, 'from', t('payments.search.from'), 'date'),
    field(req, 'to', t('payments.search.to'), 'date'),
    `<label for="q-state">${byHand(t('payments.search.state'))}</label> <select id="q-state" name="state">${options}</select>`,
    `<button type="submit">${byHand(t('payments.search.submit'))}</button>`,
    '</form>',
  ].join('\n');
}

export function paymentsFoundByHand(
  deps: ConsoleDeps,
  req: PageRequest,
  rows: readonly StoredPayment[],
  next: string | undefined,
): string {
  const cells = rows.map((p) => {
    const hidden = !mayShow(deps, req, { categoryPurpose: p.categoryPurpose, account: p.debtorIban });
    return [
      byHand(day(p.requestedExecutionDate)),
      link(href(`/console/payments/${encodeURIComponent(p.id)}`, req), p.endToEndId),
      byHand(p.creditorReference ?? ''),
      hidden ? byHand(payrollHidden()) : byHand(p.creditorName),
      hidden ? byHand(payrollHidden()) : byHand(p.creditorIban),
      hidden ? byHand(payrollHidden()) : byHand(format.money(p.amount, currentLocale())),
      byHand(lineStateCell(p.state)),
    ];
  });
  return [
    searchForm(req),
    table(
      t('payments.found.caption'),
      [
        t('payments.column.executionDate'),
        t('payments.column.e2e'),
        t('payments.column.reference'),
        t('payments.column.creditor'),
        t('payments.column.creditorIban'),
        t('payments.column.amount'),
        t('payments.column.state'),
      ],
      cells,
    ),
    pager('/console/payments', req, next),
  ].join('\n');
}
