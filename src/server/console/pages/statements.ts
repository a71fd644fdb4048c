// Statements: per account of the company, the checked days newest first — continuity (does
// yesterday's closing balance meet today's opening, do the bookings add up), the balances and
// entries, and the statement files written for each day.
import type { ConsolePage } from '../page.js';
import { amount, esc, link, pager, problem, table, withQuery } from './html.js';
import { loadPage } from './load-page.js';

export const statementsPage: ConsolePage = {
  path: '/console/statements',
  nav: 'Statements',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    // The chooser is a keyset page of its own (`accounts-after`), so an install with more
    // accounts than one page reaches each of them.
    const accountsAfter = req.query.get('accounts-after');
    const accounts = await deps.store.consoleViews.accounts(req.company, {
      limit: 100,
      ...(accountsAfter ? { after: accountsAfter } : {}),
    });
    const chosen = req.query.get('account') ?? accounts.rows[0]?.id;
    const choose = accounts.rows
      .map((a) =>
        a.id === chosen
          ? `<li aria-current="page">${esc(a.iban ?? a.id)}</li>`
          : `<li>${link(withQuery('/console/statements', req, { account: a.id, after: undefined }), a.iban ?? a.id)}</li>`,
      )
      .join('');
    const moreAccounts = accounts.next
      ? `<li>${link(withQuery('/console/statements', req, { 'accounts-after': accounts.next, after: undefined }), 'More accounts')}</li>`
      : '';
    if (chosen === undefined)
      return {
        title: 'Statements',
        body: '<p>No account has been fetched from the bank yet.</p>',
      };
    const account = await deps.store.consoleViews.account(req.company, chosen);
    if (!account) return problem('No such account', 'The company has no account with this id.', 404);
    const page = await deps.store.consoleViews.statementDays(account.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const money = (v: bigint | undefined, currency: string) => (v === undefined ? '–' : amount(v, currency));
    const rows = page.rows.map((d) => [
      esc(d.day),
      esc(d.continuity) + (d.finding ? `<br>${esc(d.finding)}` : ''),
      money(d.openingMinor, d.currency),
      money(d.bookedSumMinor, d.currency),
      money(d.closingMinor, d.currency),
      esc(String(d.entryCount)),
      d.exports.length ? d.exports.map((e) => esc(`${e.format} (${e.fileName})`)).join('<br>') : 'not exported',
    ]);
    return {
      title: 'Statements',
      body: [
        `<nav aria-label="accounts"><ul>${choose}${moreAccounts}</ul></nav>`,
        `<h2>${esc(account.iban ?? account.id)}${account.name ? ` — ${esc(account.name)}` : ''}</h2>`,
        table(
          `Days of ${account.iban ?? account.id}, newest first`,
          ['Day', 'Continuity', 'Opening', 'Booked', 'Closing', 'Entries', 'Exported'],
          rows,
        ),
        pager('/console/statements', req, page.next),
      ].join('\n'),
    };
  }),
};
