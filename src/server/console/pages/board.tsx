// The bureau's board: every company the person has a role in, one row each, with what needs a
// person there — whether it is onboarded, last night's steps, rejected files, payments held or
// unknown and their money, approvals waiting, open findings, consents and approval links
// expiring — the companies that need attention first, 50 a page. The order, the filter and the
// page are the database's (src/store/board-views.ts, read through jobs/board/board.ts as `settle
// health` reads it). A company that is not onboarded is red and says so, never green. Each
// company links to its own pages. Someone with one company has no board: Today is theirs.
import { onboardingOf } from '../../../domain/onboarding.js';
import { Link, render, type Child } from '../../../html/index.js';
import { readBoard } from '../../../../jobs/board/index.js';
import { BOARD_FILTERS, type BoardCompany, type BoardFilter } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import { problem, Totals } from './parts.js';

const FILTER_NAMES: Record<BoardFilter, string> = {
  all: 'All companies',
  'needs-attention': 'Needs attention',
  'not-onboarded': 'Not onboarded',
};

type Company = ConsoleDeps['companies'][number];

/** A console path for one company (its own pages), with more query parameters. */
function companyHref(path: string, company: string, extra: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ company, ...extra }).toString()}`;
}

/** The board with a filter and a page, keeping the company chosen in the layout. */
function boardHref(req: PageRequest, filter: BoardFilter, page = 1): string {
  const q = new URLSearchParams({ company: req.company });
  if (filter !== 'all') q.set('filter', filter);
  if (page > 1) q.set('page', String(page));
  return `/console/board?${q.toString()}`;
}

/** A count that links to the company's page listing those rows, or a plain 0. */
function counted(n: number, path: string, company: string, extra: Record<string, string> = {}): Child {
  return n === 0 ? <span class="muted">0</span> : <a href={companyHref(path, company, extra)}>{n}</a>;
}

function Onboarded({ row, company }: { row: BoardCompany; company: Company }) {
  if (row.onboarded) return <span class="ok">onboarded</span>;
  const status = onboardingOf(company, { liveConsents: row.liveConsents, enabledAccount: row.enabledAccount });
  // The why begins "not onboarded: …"; Today lists the commands that fix it.
  return (
    <>
      <span class="bad">{status.why}</span> (<Link href={companyHref('/console/', row.company)}>how to fix it</Link>)
    </>
  );
}

function LastNight({ row }: { row: BoardCompany }) {
  const missed = row.steps.filter((s) => !s.done);
  if (missed.length === 0) return <span class="ok">all {row.steps.length} steps done</span>;
  if (row.steps.every((s) => s.lastSuccess === undefined)) return <span class="bad">never ran</span>;
  return (
    <span class="bad">
      {missed.length} of {row.steps.length} not done: {missed.map((s) => s.job).join(', ')}
    </span>
  );
}

function CompanyRow({ row, company }: { row: BoardCompany; company: Company }) {
  const id = row.company;
  return (
    <tr class={row.onboarded ? undefined : 'red'}>
      <th scope="row" data-label="Company">
        <Link href={companyHref('/console/', id)}>{company.name}</Link>
        <br />
        <span class="links">
          <Link href={companyHref('/console/files', id)}>Files</Link> ·{' '}
          <Link href={companyHref('/console/approvals', id)}>Approvals</Link> ·{' '}
          <Link href={companyHref('/console/reconciliation', id)}>Reconciliation</Link> ·{' '}
          <Link href={companyHref('/console/banks', id)}>Banks</Link>
        </span>
      </th>
      <td data-label="Onboarded">
        <Onboarded row={row} company={company} />
      </td>
      <td data-label="Last night">
        <LastNight row={row} />
      </td>
      <td data-label="Rejected files" class="num">
        {counted(row.rejectedFiles, '/console/files', id, { state: 'rejected' })}
      </td>
      <td data-label="Held · unknown" class="num">
        {counted(row.heldPayments, '/console/held', id)} · {counted(row.unknownPayments, '/console/bulks', id)}
      </td>
      <td data-label="Approvals waiting" class="num">
        {counted(row.approvalsWaiting, '/console/approvals', id)}
      </td>
      <td data-label="Findings" class="num">
        {counted(row.openFindings, '/console/reconciliation', id)}
      </td>
      <td data-label="At stake" class="num">
        <Totals byCurrency={Object.fromEntries(row.atStake.map((m) => [m.currency, m.minor]))} />
      </td>
      <td data-label="Expiring">
        {row.consentsExpiring + row.linksExpiring === 0 ? (
          <span class="muted">none</span>
        ) : (
          <>
            {row.consentsExpiring > 0 && (
              <a href={companyHref('/console/', id) + '#consents'} class="warn">
                {row.consentsExpiring} consent{row.consentsExpiring === 1 ? '' : 's'}
              </a>
            )}
            {row.consentsExpiring > 0 && row.linksExpiring > 0 && ' · '}
            {row.linksExpiring > 0 && (
              <a href={companyHref('/console/', id) + '#links'} class="warn">
                {row.linksExpiring} approval link{row.linksExpiring === 1 ? '' : 's'}
              </a>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

const HEAD = [
  'Company',
  'Onboarded',
  'Last night',
  'Rejected files',
  'Held · unknown',
  'Approvals waiting',
  'Findings',
  'At stake',
  'Expiring',
];

export const boardPage: ConsolePage = {
  path: '/console/board',
  nav: 'nav.board',
  acrossCompanies: true,
  load: loadPage(async (deps, req) => {
    const mine = deps.companies.filter((c) => req.user.rolesByCompany.has(c.id));
    // One company has no board to read: its Today is the page (the router sends the redirect).
    if (mine.length <= 1)
      return { title: 'Today', body: render(<></>), redirect: companyHref('/console/', req.company) };
    const asked = req.query.get('filter') ?? 'all';
    const filter = BOARD_FILTERS.find((f) => f === asked);
    if (filter === undefined)
      return problem('No such filter', `Filter by ${BOARD_FILTERS.join(', ')}; start again from the board.`, 400);
    const pageText = req.query.get('page') ?? '1';
    const page = /^[1-9]\d{0,5}$/.test(pageText) ? Number(pageText) : undefined;
    if (page === undefined)
      return problem('No such page', 'A page is a number from 1; start again from the first page.', 400);
    const now = deps.clock.now();
    const board = await readBoard(deps.store, {
      companies: mine.map((c) => c.id),
      now,
      ...(deps.warnBeforeMs === undefined ? {} : { warnBeforeMs: deps.warnBeforeMs }),
      ...(deps.linkWarnBeforeMs === undefined ? {} : { linkWarnBeforeMs: deps.linkWarnBeforeMs }),
      filter,
      page,
    });
    const byId = new Map(mine.map((c) => [c.id, c]));
    const count = {
      all: board.counts.all,
      'needs-attention': board.counts.needsAttention,
      'not-onboarded': board.counts.notOnboarded,
    };
    return {
      title: 'Board',
      body: render(
        <>
          <p>
            {board.counts.all} companies: <strong>{board.counts.needsAttention}</strong> need attention,{' '}
            <strong class={board.counts.notOnboarded > 0 ? 'bad' : undefined}>{board.counts.notOnboarded}</strong> not
            onboarded. Last night is the 24 hours before now; the companies that need attention come first.
          </p>
          <nav aria-label="Filter">
            <ul class="filters">
              {BOARD_FILTERS.map((f) => (
                <li>
                  <a href={boardHref(req, f)} aria-current={f === filter ? 'page' : undefined}>
                    {FILTER_NAMES[f]} ({count[f]})
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {board.rows.length === 0 ? (
            <p class="muted">
              No company on this page. <Link href={boardHref(req, filter)}>First page</Link>
            </p>
          ) : (
            <div class="board">
              <table>
                <caption class="skip">Companies, those that need attention first</caption>
                <thead>
                  <tr>
                    {HEAD.map((h) => (
                      <th scope="col">{h}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {board.rows.flatMap((row) => {
                    const company = byId.get(row.company);
                    return company ? ['\n', <CompanyRow row={row} company={company} />] : [];
                  })}
                  {'\n'}
                </tbody>
              </table>
            </div>
          )}
          {board.pages > 1 && (
            <nav aria-label="Board: pages">
              Page {board.page} of {board.pages}
              {board.page > 1 && (
                <>
                  {' · '}
                  <Link href={boardHref(req, filter, board.page - 1)}>Previous page</Link>
                </>
              )}
              {board.page < board.pages && (
                <>
                  {' · '}
                  <Link href={boardHref(req, filter, board.page + 1)}>Next page</Link>
                </>
              )}
            </nav>
          )}
        </>,
      ),
    };
  }),
};
