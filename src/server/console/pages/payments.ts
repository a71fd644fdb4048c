// Payments: search by end-to-end id, the ERP's reference, creditor, exact amount, execution
// dates and state, newest execution date first. A person without the payroll role never finds
// a payroll line by its creditor or amount, and sees such lines without them.
import { LINE_STATES } from '../../../domain/states.js';
import type { ConsolePage, PageRequest } from '../page.js';
import { esc, hasRole, href, link, pager, payrollAccounts, table, visibleLine } from './html.js';
import { loadPage } from './load-page.js';
import { readSearch } from './payment-search.js';

function field(req: PageRequest, name: string, label: string, type = 'text'): string {
  const value = req.query.get(name) ?? '';
  return `<label for="q-${name}">${esc(label)}</label> <input id="q-${name}" name="${name}" type="${type}" value="${esc(value)}">`;
}

function searchForm(req: PageRequest): string {
  const state = req.query.get('state') ?? '';
  const options = ['', ...LINE_STATES]
    .map((s) => `<option value="${esc(s)}"${s === state ? ' selected' : ''}>${esc(s || 'any')}</option>`)
    .join('');
  return [
    '<form method="get" action="/console/payments" role="search">',
    `<input type="hidden" name="company" value="${esc(req.company)}">`,
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

export const paymentsPage: ConsolePage = {
  path: '/console/payments',
  nav: 'Payments',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const { search, problems } = readSearch(req.company, req.query);
    if (problems.length)
      return {
        title: 'Payments',
        status: 400,
        body: [
          `<div role="alert"><p>The search was not run:</p><ul>${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul></div>`,
          searchForm(req),
        ].join('\n'),
      };
    // A payroll line found by its creditor or amount would tell what only the payroll role may know.
    if (
      !hasRole(req, 'payroll') &&
      (search.creditorIban ?? search.creditorNamePrefix ?? search.amountMinor) !== undefined
    )
      search.withoutPayroll = { debtorIbans: payrollAccounts(deps, req.company) };
    const page = await deps.store.consoleViews.searchPayments(search);
    const rows = page.rows.map((p) => {
      const v = visibleLine(deps, req, p);
      return [
        esc(p.requestedExecutionDate),
        link(href(`/console/payments/${encodeURIComponent(p.id)}`, req), p.endToEndId),
        esc(p.creditorReference ?? ''),
        v.creditor,
        v.creditorIban,
        v.amount,
        esc(p.state),
      ];
    });
    return {
      title: 'Payments',
      body: [
        searchForm(req),
        table(
          'Payments found, latest execution date first',
          ['Execution date', 'End-to-end id', 'Reference', 'Creditor', 'Creditor IBAN', 'Amount', 'State'],
          rows,
        ),
        pager('/console/payments', req, page.next),
      ].join('\n'),
    };
  }),
};
