// The bureau's board: every company the person has a role in, one row each, with what needs a
// person there — whether it is onboarded, last night's steps, rejected files, payments held or
// unknown and their money, approvals waiting, open findings, consents and approval links
// expiring — the companies that need attention first, or by name (?sort=name) in the reader's
// language, 50 a page. The order, the filter and the page are the database's (src/store/board-views.ts, read through jobs/board/board.ts as `settle
// health` reads it). A company that is not onboarded is red and says so, never green. Each
// company links to those of its pages the person's roles there open (a viewer in one company and
// finance in another gets Reconciliation's link only where it would not refuse them); a count
// behind a page they may not open is shown without a link. Someone with one company has no
// board: Today is theirs.
import { onboardingOf } from '../../../domain/onboarding.js';
import { Link, render, Sentence, type Child } from '../../../html/index.js';
import { currentLocale, t } from '../../../i18n/index.js';
import { BOARD_SORTS, readBoard, type BoardSort } from '../../../../jobs/board/index.js';
import { BOARD_FILTERS, type BoardCompany, type BoardFilter } from '../../../store/index.js';
import type { Role } from '../../../domain/roles.js';
import { mayOpen } from '../access.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import { problem, Totals } from './parts.js';

type Company = ConsoleDeps['companies'][number];

/** A console path for one company (its own pages), with more query parameters. */
function companyHref(path: string, company: string, extra: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ company, ...extra }).toString()}`;
}

/** The board with a filter, a sort and a page, keeping the company chosen in the layout. */
function boardHref(req: PageRequest, filter: BoardFilter, sort: BoardSort, page = 1): string {
  const q = new URLSearchParams({ company: req.company });
  if (filter !== 'all') q.set('filter', filter);
  if (sort !== 'attention') q.set('sort', sort);
  if (page > 1) q.set('page', String(page));
  return `/console/board?${q.toString()}`;
}

/** Which of a company's pages the person may open there: their roles in it (or install-wide auditor). */
type Opens = (path: string) => boolean;

function opensIn(roles: ReadonlySet<Role> | undefined, auditor: boolean | undefined): Opens {
  return (path) => mayOpen({ roles: roles ?? [], auditor }, path);
}

/** A count that links to the company's page listing those rows (where the person may open it), or a plain 0. */
function counted(n: number, opens: Opens, path: string, company: string, extra: Record<string, string> = {}): Child {
  if (n === 0) return <span class="muted">0</span>;
  return opens(path) ? <a href={companyHref(path, company, extra)}>{n}</a> : <span>{n}</span>;
}

/** The company's own pages the row links to, each only where the person may open it. */
const ROW_LINKS = [
  ['/console/files', 'board.link.files'],
  ['/console/approvals', 'board.link.approvals'],
  ['/console/reconciliation', 'board.link.reconciliation'],
  ['/console/banks', 'board.link.banks'],
] as const;

function Onboarded({ row, company }: { row: BoardCompany; company: Company }) {
  if (row.onboarded) return <span class="ok">{t('board.onboarded')}</span>;
  const status = onboardingOf(company, { liveConsents: row.liveConsents, enabledAccount: row.enabledAccount });
  // The sentence begins "not onboarded: …" (as status.why does in English); Today lists the commands that fix it.
  return (
    <>
      <span class="bad">
        {t('board.notOnboarded', { missing: status.missing.length === 2 ? 'both' : (status.missing[0] ?? 'both') })}
      </span>{' '}
      (<Link href={companyHref('/console/', row.company)}>{t('board.howToFix')}</Link>)
    </>
  );
}

function LastNight({ row }: { row: BoardCompany }) {
  const missed = row.steps.filter((s) => !s.done);
  if (missed.length === 0) return <span class="ok">{t('board.allStepsDone', { count: row.steps.length })}</span>;
  if (row.steps.every((s) => s.lastSuccess === undefined)) return <span class="bad">{t('board.neverRan')}</span>;
  return (
    <span class="bad">
      {t('board.stepsMissed', {
        missed: missed.length,
        count: row.steps.length,
        jobs: missed.map((s) => s.job).join(', '),
      })}
    </span>
  );
}

function CompanyRow({ row, company, opens }: { row: BoardCompany; company: Company; opens: Opens }) {
  const id = row.company;
  const links = ROW_LINKS.filter(([path]) => opens(path));
  return (
    <tr class={row.onboarded ? undefined : 'red'}>
      <th scope="row" data-label={t('board.column.company')}>
        <Link href={companyHref('/console/', id)}>{company.name}</Link>
        <br />
        <span class="links">
          {links.flatMap(([path, key], i) => [
            ...(i > 0 ? [' · '] : []),
            <Link href={companyHref(path, id)}>{t(key)}</Link>,
          ])}
        </span>
      </th>
      <td data-label={t('board.column.onboarded')}>
        <Onboarded row={row} company={company} />
      </td>
      <td data-label={t('board.column.lastNight')}>
        <LastNight row={row} />
      </td>
      <td data-label={t('board.column.rejectedFiles')} class="num">
        {counted(row.rejectedFiles, opens, '/console/files', id, { state: 'rejected' })}
      </td>
      <td data-label={t('board.column.heldUnknown')} class="num">
        {counted(row.heldPayments, opens, '/console/held', id)} ·{' '}
        {counted(row.unknownPayments, opens, '/console/bulks', id)}
      </td>
      <td data-label={t('board.column.approvalsWaiting')} class="num">
        {counted(row.approvalsWaiting, opens, '/console/approvals', id)}
      </td>
      <td data-label={t('board.column.findings')} class="num">
        {counted(row.openFindings, opens, '/console/reconciliation', id)}
      </td>
      <td data-label={t('board.column.atStake')} class="num">
        <Totals byCurrency={Object.fromEntries(row.atStake.map((m) => [m.currency, m.minor]))} />
      </td>
      <td data-label={t('board.column.expiring')}>
        {row.consentsExpiring + row.linksExpiring === 0 ? (
          <span class="muted">{t('board.nothingExpiring')}</span>
        ) : (
          <>
            {row.consentsExpiring > 0 && (
              <a href={companyHref('/console/', id) + '#consents'} class="warn">
                {t('board.consentsExpiring', { count: row.consentsExpiring })}
              </a>
            )}
            {row.consentsExpiring > 0 && row.linksExpiring > 0 && ' · '}
            {row.linksExpiring > 0 && (
              <a href={companyHref('/console/', id) + '#links'} class="warn">
                {t('board.linksExpiring', { count: row.linksExpiring })}
              </a>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

const HEAD = [
  'company',
  'onboarded',
  'lastNight',
  'rejectedFiles',
  'heldUnknown',
  'approvalsWaiting',
  'findings',
  'atStake',
  'expiring',
] as const;

export const boardPage: ConsolePage = {
  path: '/console/board',
  nav: 'nav.board',
  acrossCompanies: true,
  load: loadPage(async (deps, req) => {
    const mine = deps.companies.filter((c) => req.user.rolesByCompany.has(c.id));
    // One company has no board to read: its Today is the page (the router sends the redirect).
    if (mine.length <= 1)
      return { title: t('nav.today'), body: render(<></>), redirect: companyHref('/console/', req.company) };
    const asked = req.query.get('filter') ?? 'all';
    const filter = BOARD_FILTERS.find((f) => f === asked);
    if (filter === undefined)
      return problem(t('board.noFilter.title'), t('board.noFilter.body', { filters: BOARD_FILTERS.join(', ') }), 400);
    const askedSort = req.query.get('sort') ?? 'attention';
    const sort = BOARD_SORTS.find((s) => s === askedSort);
    if (sort === undefined)
      return problem(t('board.noSort.title'), t('board.noSort.body', { sorts: BOARD_SORTS.join(', ') }), 400);
    const pageText = req.query.get('page') ?? '1';
    const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : undefined;
    if (page === undefined) return problem(t('board.noPage.title'), t('board.noPage.body'), 400);
    const now = deps.clock.now();
    const board = await readBoard(deps.store, {
      companies: mine.map((c) => c.id),
      now,
      ...(deps.warnBeforeMs === undefined ? {} : { warnBeforeMs: deps.warnBeforeMs }),
      ...(deps.linkWarnBeforeMs === undefined ? {} : { linkWarnBeforeMs: deps.linkWarnBeforeMs }),
      filter,
      sort,
      byName: { names: new Map(mine.map((c) => [c.id, c.name])), locale: currentLocale() },
      page,
    });
    const byId = new Map(mine.map((c) => [c.id, c]));
    const count = {
      all: board.counts.all,
      'needs-attention': board.counts.needsAttention,
      'not-onboarded': board.counts.notOnboarded,
    };
    return {
      title: t('board.title'),
      body: render(
        <>
          <p>
            <Sentence
              k="board.summary"
              values={{
                all: board.counts.all,
                attention: board.counts.needsAttention,
                notOnboarded: board.counts.notOnboarded,
              }}
              tags={{
                b: (text) => <strong>{text}</strong>,
                bad: (text) => <strong class={board.counts.notOnboarded > 0 ? 'bad' : undefined}>{text}</strong>,
              }}
            />
          </p>
          <nav aria-label={t('board.filterNav')}>
            <ul class="filters">
              {BOARD_FILTERS.map((f) => (
                <li>
                  <a href={boardHref(req, f, sort)} aria-current={f === filter ? 'page' : undefined}>
                    {t('board.filterCount', { name: t(`board.filter.${f}`), count: count[f] })}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-label={t('board.sortNav')}>
            <ul class="filters">
              {BOARD_SORTS.map((s) => (
                <li>
                  <a href={boardHref(req, filter, s)} aria-current={s === sort ? 'page' : undefined}>
                    {t(`board.sort.${s}`)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {board.rows.length === 0 ? (
            <p class="muted">
              <Sentence
                k="board.emptyPage"
                tags={{ first: (text) => <Link href={boardHref(req, filter, sort)}>{text}</Link> }}
              />
            </p>
          ) : (
            <div class="board">
              <table>
                <caption class="skip">{t(sort === 'name' ? 'board.captionByName' : 'board.caption')}</caption>
                <thead>
                  <tr>
                    {HEAD.map((h) => (
                      <th scope="col">{t(`board.column.${h}`)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {board.rows.flatMap((row) => {
                    const company = byId.get(row.company);
                    const opens = opensIn(req.user.rolesByCompany.get(row.company), req.user.auditor);
                    return company ? ['\n', <CompanyRow row={row} company={company} opens={opens} />] : [];
                  })}
                  {'\n'}
                </tbody>
              </table>
            </div>
          )}
          {board.pages > 1 && (
            <nav aria-label={t('board.pagesNav')}>
              {t('board.pageOf', { page: board.page, pages: board.pages })}
              {board.page > 1 && (
                <>
                  {' · '}
                  <Link href={boardHref(req, filter, sort, board.page - 1)}>{t('board.previousPage')}</Link>
                </>
              )}
              {board.page < board.pages && (
                <>
                  {' · '}
                  <Link href={boardHref(req, filter, sort, board.page + 1)}>{t('board.nextPage')}</Link>
                </>
              )}
            </nav>
          )}
        </>,
      ),
    };
  }),
};
