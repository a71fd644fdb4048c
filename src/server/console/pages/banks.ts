// Banks: the company's consent at each bank with its status and expiry, and its accounts with
// the bank's status of each, both keyset paged (consents by `after-consents`, accounts by `after`) — only an `enabled` account is usable (spec §3.1 rule 2), whatever
// the consent says.
import type { ConsolePage } from '../page.js';
import { esc, link, pager, table, when, withQuery } from './html.js';
import { loadPage } from './load-page.js';

export const banksPage: ConsolePage = {
  path: '/console/banks',
  nav: 'Banks',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const consentsAfter = req.query.get('after-consents');
    const consents = await deps.store.consoleViews.consents(req.company, {
      ...(consentsAfter ? { after: consentsAfter } : {}),
    });
    const accounts = await deps.store.consoleViews.accounts(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const now = deps.clock.now();
    return {
      title: 'Banks',
      body: [
        table(
          'Consents',
          ['Bank', 'Consent', 'Status', 'Expires', 'Reported'],
          consents.rows.map((c) => [
            esc(c.bankId),
            esc(c.consentId),
            esc(c.status),
            c.expiresAt ? when(deps, req, c.expiresAt) + (c.expiresAt <= now ? ' (expired)' : '') : '–',
            `${when(deps, req, c.statusAt)} (${esc(c.source)})`,
          ]),
        ),
        consents.next
          ? `<nav aria-label="consents: pages">${link(withQuery('/console/banks', req, { 'after-consents': consents.next }), 'More consents')}</nav>`
          : '',
        table(
          'Accounts',
          ['Account', 'IBAN', 'Name', 'Currency', 'Status at the bank', 'Usable', 'Last fetched'],
          accounts.rows.map((a) => [
            esc(a.id),
            esc(a.iban ?? '–'),
            esc(a.name ?? '–'),
            esc(a.currency ?? '–'),
            esc(a.status ?? 'unknown'),
            a.status === 'enabled' ? 'yes' : 'no',
            when(deps, req, a.lastFetchedAt),
          ]),
        ),
        pager('/console/banks', req, accounts.next),
      ].join('\n'),
    };
  }),
};
