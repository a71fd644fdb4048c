// Banks: the company's consent at each bank with its status and expiry, and its accounts with
// the bank's status of each, both keyset paged (consents by `after-consents`, accounts by `after`) — only an `enabled` account is usable (spec §3.1 rule 2), whatever
// the consent says.
import { Link, render, Table } from '../../../html/index.js';
import type { ConsolePage } from '../page.js';
import { loadPage } from './load-page.js';
import { Pager, when, withQuery } from './parts.js';

export const banksPage: ConsolePage = {
  path: '/console/banks',
  nav: 'nav.banks',
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
      body: render(
        <>
          <Table
            caption="Consents"
            head={['Bank', 'Consent', 'Status', 'Expires', 'Reported']}
            rows={consents.rows}
            empty="none"
            cells={(c) => [
              c.bankId,
              c.consentId,
              c.status,
              c.expiresAt ? [when(deps, req, c.expiresAt), c.expiresAt <= now && ' (expired)'] : '–',
              [when(deps, req, c.statusAt), ` (${c.source})`],
            ]}
          />
          {consents.next && (
            <nav aria-label="consents: pages">
              <Link href={withQuery('/console/banks', req, { 'after-consents': consents.next })}>More consents</Link>
            </nav>
          )}
          <Table
            caption="Accounts"
            head={['Account', 'IBAN', 'Name', 'Currency', 'Status at the bank', 'Usable', 'Last fetched']}
            rows={accounts.rows}
            empty="none"
            cells={(a) => [
              a.id,
              a.iban ?? '–',
              a.name ?? '–',
              a.currency ?? '–',
              a.status ?? 'unknown',
              a.status === 'enabled' ? 'yes' : 'no',
              when(deps, req, a.lastFetchedAt),
            ]}
          />
          <Pager path="/console/banks" req={req} next={accounts.next} />
        </>,
      ),
    };
  }),
};
