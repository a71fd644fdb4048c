// Banks: the company's consent at each bank with its status and expiry, and its accounts with
// the bank's status of each, both keyset paged (consents by `after-consents`, accounts by `after`) — only an `enabled` account is usable (spec §3.1 rule 2), whatever
// the consent says.
import { Link, render, Table } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import type { ConsolePage } from '../page.js';
import { loadPage } from './load-page.js';
import { codeText, Pager, when, withQuery } from './parts.js';

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
      title: t('banks.title'),
      body: render(
        <>
          <Table
            caption={t('banks.consents')}
            head={(['bank', 'consent', 'status', 'expires', 'reported'] as const).map((h) => t(`banks.consent.${h}`))}
            rows={consents.rows}
            empty={t('banks.none')}
            cells={(c) => [
              c.bankId,
              c.consentId,
              codeText('consent', c.status),
              c.expiresAt ? [when(deps, req, c.expiresAt), c.expiresAt <= now && t('banks.expired')] : '–',
              [when(deps, req, c.statusAt), t('banks.source', { source: codeText('consentSource', c.source) })],
            ]}
          />
          {consents.next && (
            <nav aria-label={t('banks.consentPages')}>
              <Link href={withQuery('/console/banks', req, { 'after-consents': consents.next })}>
                {t('banks.moreConsents')}
              </Link>
            </nav>
          )}
          <Table
            caption={t('banks.accounts')}
            head={(['account', 'iban', 'name', 'currency', 'status', 'usable', 'lastFetched'] as const).map((h) =>
              t(`banks.account.${h}`),
            )}
            rows={accounts.rows}
            empty={t('banks.none')}
            cells={(a) => [
              a.id,
              a.iban ?? '–',
              a.name ?? '–',
              a.currency ?? '–',
              a.status === undefined ? t('banks.statusUnknown') : codeText('account', a.status),
              a.status === 'enabled' ? t('banks.yes') : t('banks.no'),
              when(deps, req, a.lastFetchedAt),
            ]}
          />
          <Pager path="/console/banks" req={req} next={accounts.next} />
        </>,
      ),
    };
  }),
};
