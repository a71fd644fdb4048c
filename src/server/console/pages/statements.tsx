// Statements: per account of the company, the checked days newest first — continuity (does
// yesterday's closing balance meet today's opening, do the bookings add up), the balances and
// entries, and the statement files written for each day. A payroll account's balances and daily
// sums are the payroll role's only (src/domain/payroll.ts): the day's booked sum of a payroll
// account is the night's salaries.
import type { ConsolePage } from '../page.js';
import { Amount, Link, render, Table } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import { day } from './finding-about.js';
import { loadPage } from './load-page.js';
import { mayShow, Pager, payrollHidden, problem, withQuery } from './parts.js';

export const statementsPage: ConsolePage = {
  path: '/console/statements',
  nav: 'nav.statements',
  load: loadPage(async (deps, req) => {
    // The chooser is a keyset page of its own (`accounts-after`), so an install with more
    // accounts than one page reaches each of them.
    const accountsAfter = req.query.get('accounts-after');
    const accounts = await deps.store.consoleViews.accounts(req.company, {
      limit: 100,
      ...(accountsAfter ? { after: accountsAfter } : {}),
    });
    const chosen = req.query.get('account') ?? accounts.rows[0]?.id;
    if (chosen === undefined)
      return {
        title: t('statements.title'),
        body: render(<p>{t('statements.noAccount')}</p>),
      };
    const account = await deps.store.consoleViews.account(req.company, chosen);
    if (!account) return problem(t('statements.noSuchAccount'), t('statements.noAccountWithId'), 404);
    const page = await deps.store.consoleViews.statementDays(account.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const shown = mayShow(deps, req, { account: account.iban ?? account.id });
    const money = (v: bigint | undefined, currency: string) =>
      !shown ? payrollHidden() : v === undefined ? '–' : <Amount money={{ minor: v, currency }} />;
    const statements = '/console/statements';
    return {
      title: t('statements.title'),
      body: render(
        <>
          <nav aria-label={t('statements.accounts')}>
            <ul>
              {accounts.rows.map((a) =>
                a.id === chosen ? (
                  <li aria-current="page">{a.iban ?? a.id}</li>
                ) : (
                  <li>
                    <Link href={withQuery(statements, req, { account: a.id, after: undefined })}>{a.iban ?? a.id}</Link>
                  </li>
                ),
              )}
              {accounts.next && (
                <li>
                  <Link href={withQuery(statements, req, { 'accounts-after': accounts.next, after: undefined })}>
                    {t('statements.moreAccounts')}
                  </Link>
                </li>
              )}
            </ul>
          </nav>
          <h2>{t('statements.heading', { account: account.iban ?? account.id, name: account.name || 'none' })}</h2>
          {!shown && <p class="muted">{t('statements.payrollAccount')}</p>}
          <Table
            caption={t('statements.caption', { account: account.iban ?? account.id })}
            head={(['day', 'continuity', 'opening', 'booked', 'closing', 'entries', 'exported'] as const).map((h) =>
              t(`statements.head.${h}`),
            )}
            rows={page.rows}
            empty={t('statements.none')}
            cells={(d) => [
              day(d.day),
              // A continuity finding names the balances: hidden with them.
              [
                t('statements.continuity', { continuity: d.continuity }),
                d.finding && [<br />, shown ? d.finding : payrollHidden()],
              ],
              money(d.openingMinor, d.currency),
              money(d.bookedSumMinor, d.currency),
              money(d.closingMinor, d.currency),
              String(d.entryCount),
              d.exports.length
                ? d.exports.map((e, i) => [
                    i > 0 && <br />,
                    t('statements.export', { format: e.format, file: e.fileName }),
                  ])
                : t('statements.notExported'),
            ]}
          />
          <Pager path={statements} req={req} next={page.next} />
        </>,
      ),
    };
  }),
};
