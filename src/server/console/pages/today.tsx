// Today: what needs a person in the chosen company — rejected files, unknown bulks, approvals
// waiting with their link's expiry, open reconciliation findings, consents and approval links
// near expiry, statement gaps — and the last run of each job. Each list is one keyset page read
// in the database for this company alone (src/store/today-views.ts); its "more" link carries
// that list's cursor (`?after-<list>=`), so no list ever reads all its rows. Above them, in red,
// a company that is not onboarded (no usable consent or no enabled account) says what is missing.
import { Link, render, Table, type Child, type JSX } from '../../../html/index.js';
import type { Paged, PageQuery } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { onboardingOfAll } from '../../../domain/onboarding.js';
import { loadPage } from './load-page.js';
import { href, localTime, mayRead, when, withQuery } from './parts.js';
import { FindingAbout } from './finding-about.js';

/** Rows of each list on this page; its "more" link shows the next ones. */
const SHOWN = 10;
const DEFAULT_WARN_BEFORE_MS = 7 * 86_400_000;
const DEFAULT_LINK_WARN_BEFORE_MS = 86_400_000;

interface Section<T> {
  /** The list's name in its cursor parameter (`after-<key>`) and its anchor. */
  key: string;
  title: string;
  head: string[];
  empty: string;
  load: (q: PageQuery) => Promise<Paged<T>>;
  cells: (row: T) => Child[];
}

/**
 * The page a list belongs to, where it is not everyone's (src/server/console/access.ts): Today
 * shows it only to whoever may open that page, so a viewer is not shown the reconciliation.
 */
const LIST_PAGE: Readonly<Record<string, string>> = {
  bulks: '/console/bulks',
  findings: '/console/reconciliation',
  consents: '/console/banks',
  gaps: '/console/statements',
};

/** One list of the page: its first page, or the page after its own cursor, with a "more" link. */
async function section<T>(req: PageRequest, s: Section<T>): Promise<JSX.Element> {
  const home = LIST_PAGE[s.key];
  if (home !== undefined && !mayRead(req, home)) return <></>;
  const after = req.query.get(`after-${s.key}`) ?? undefined;
  const page = await s.load({ limit: SHOWN, ...(after ? { after } : {}) });
  const count = `${page.rows.length}${page.next ? '+' : ''}`;
  const first = after && (
    <Link href={withQuery('/console/', req, { [`after-${s.key}`]: undefined }) + `#${s.key}`}>First ones</Link>
  );
  const more = page.next && (
    <Link href={withQuery('/console/', req, { [`after-${s.key}`]: page.next }) + `#${s.key}`}>More</Link>
  );
  return (
    <>
      <h2 id={s.key}>
        {s.title} ({count})
      </h2>
      <Table
        caption={s.title}
        captionClass="skip"
        head={s.head}
        rows={page.rows}
        cells={s.cells}
        empty={{ note: s.empty }}
      />
      {(first || more) && (
        <nav aria-label={`${s.title}: pages`}>
          {first}
          {first && more && ' · '}
          {more}
        </nav>
      )}
    </>
  );
}

function sections(deps: ConsoleDeps, req: PageRequest): Promise<JSX.Element>[] {
  const { company } = req;
  const now = deps.clock.now();
  const horizon = new Date(now.getTime() + (deps.warnBeforeMs ?? DEFAULT_WARN_BEFORE_MS));
  const linkHorizon = new Date(now.getTime() + (deps.linkWarnBeforeMs ?? DEFAULT_LINK_WARN_BEFORE_MS));
  const at = (d: Date | undefined) => when(deps, req, d);
  // An expiry within alerts.warnBefore (a consent) or alerts.linkWarnBefore (an approval link) is
  // marked, as the alerts warn of it; a past one as expired.
  const soon = (d: Date, within = horizon) =>
    d <= now ? (
      <>
        {' '}
        <span class="bad">(expired)</span>
      </>
    ) : (
      d <= within && (
        <>
          {' '}
          <span class="warn">(expires soon)</span>
        </>
      )
    );
  return [
    section(req, {
      key: 'rejected',
      title: 'Rejected files',
      head: ['File', 'Received', 'Lines', 'Why'],
      empty: 'No rejected files.',
      load: (q) => deps.store.today.rejectedFiles(company, q),
      cells: (f) => [
        <Link href={href(`/console/files/${encodeURIComponent(f.id)}`, req)}>{f.fileName}</Link>,
        at(f.receivedAt),
        <span class="num">{f.lineCount}</span>,
        f.errorSummary ?? '',
      ],
    }),
    section(req, {
      key: 'bulks',
      title: 'Bulks with an unknown outcome at the bank',
      head: ['Bulk', 'Debtor account', 'Execution date', 'Lines'],
      empty: 'No bulk waits for a person to resolve it.',
      load: (q) => deps.store.today.unknownBulks(company, q),
      cells: (b) => [
        // To the Unknown bulks page, where an operator records what the bank said.
        <Link href={href('/console/bulks', req) + `#bulk-${encodeURIComponent(b.id)}`}>{b.id}</Link>,
        b.debtorIban,
        b.executionDate,
        <span class="num">{b.lineCount}</span>,
      ],
    }),
    section(req, {
      key: 'approvals',
      title: 'Approvals waiting',
      head: ['Basket', 'State', 'Lines', 'Link expires'],
      empty: 'No basket waits for approval.',
      load: (q) => deps.store.consoleViews.waitingBaskets(company, q),
      cells: (b) => [
        // settle's basket id, as on Approvals and in the approval notice: one id per basket.
        <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>{b.id}</Link>,
        b.state,
        <span class="num">{b.lineCount}</span>,
        b.scaLinkExpiresAt ? [at(b.scaLinkExpiresAt), soon(b.scaLinkExpiresAt, linkHorizon)] : '–',
      ],
    }),
    section(req, {
      key: 'findings',
      title: 'Open reconciliation findings',
      head: ['Finding', 'Since'],
      empty: 'No open reconciliation findings.',
      // Each with what it is about (money, counterparty), read for the page in two queries.
      load: async (q) => {
        const page = await deps.store.today.openFindings(company, q);
        const facts = await deps.store.consoleViews.findingFacts(company, page.rows);
        return { ...page, rows: page.rows.map((finding) => ({ finding, facts })) };
      },
      cells: ({ finding, facts }) => [
        <FindingAbout deps={deps} req={req} finding={finding} facts={facts} />,
        at(finding.firstSeenAt),
      ],
    }),
    section(req, {
      key: 'consents',
      title: 'Consents near expiry',
      head: ['Bank', 'Consent', 'Status', 'Expires'],
      empty: 'No consent expires soon.',
      load: (q) => deps.store.today.consentsExpiringBy(company, horizon, q),
      cells: (c) => [c.bankId, c.consentId, c.status, [at(c.expiresAt), soon(c.expiresAt)]],
    }),
    section(req, {
      key: 'links',
      title: 'Approval links near expiry',
      head: ['Basket', 'Link expires'],
      empty: 'No approval link expires soon.',
      load: (q) => deps.store.today.linksExpiringBy(company, linkHorizon, q),
      cells: (l) => [
        <Link href={href(`/console/approvals/${encodeURIComponent(l.basketId)}`, req)}>{l.basketId}</Link>,
        [at(l.expiresAt), soon(l.expiresAt, linkHorizon)],
      ],
    }),
    section(req, {
      key: 'gaps',
      title: 'Statement gaps',
      head: ['Account', 'Day', 'Continuity', 'Finding'],
      empty: 'No statement day has a gap or a mismatch.',
      load: (q) => deps.store.today.statementGaps(company, q),
      cells: (g) => [g.iban ?? g.accountId, g.day, g.continuity, g.finding ?? ''],
    }),
  ];
}

/** A company settle cannot pay or fetch for is never all clear: what is missing and the commands that fix it. */
async function notOnboarded(
  deps: ConsoleDeps,
  company: ConsoleDeps['companies'][number],
): Promise<JSX.Element | undefined> {
  const [consents, accounts] = await Promise.all([
    deps.store.consents.liveByCompany(deps.clock.now(), company.id),
    deps.store.accountStatus.companiesWithUsableAccount(company.id),
  ]);
  const [status] = onboardingOfAll([company], consents, accounts);
  if (!status || status.onboarded) return undefined;
  return (
    <section role="alert" aria-labelledby="onboarding">
      <h2 id="onboarding" class="bad">
        {company.name} is not onboarded
      </h2>
      <p class="bad">{status.why}.</p>
      <p>To onboard it, run:</p>
      <ol>
        {status.fix.map((command) => (
          <li>
            <code>{command}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}

export const todayPage: ConsolePage = {
  path: '/console/',
  nav: 'nav.today',
  load: loadPage(async (deps, req) => {
    const company = deps.companies.find((c) => c.id === req.company);
    const zone = company?.timeZone ?? 'UTC';
    const lists = await Promise.all(sections(deps, req));
    const onboarding = company && (await notOnboarded(deps, company));
    // One row per job (latestPerJob), and each job's last success per company: both bounded by
    // the number of jobs, not by history.
    const runs = await deps.store.jobRuns.latestPerJob();
    const successes = (await deps.store.jobSuccesses.list()).filter((s) => s.company === req.company);
    const jobs = (
      <Table
        caption="Last run of each job"
        captionClass="skip"
        head={['Job', 'Started', 'Finished', 'Outcome', `Last success for ${req.company}`]}
        rows={runs}
        empty={{ note: 'No job has run yet.' }}
        cells={(r) => {
          const success = successes.find((s) => s.job === r.job);
          const css = r.outcome === 'ok' ? 'ok' : r.outcome === 'failed' ? 'bad' : 'warn';
          return [
            r.job,
            localTime(r.startedAt, zone),
            r.finishedAt ? localTime(r.finishedAt, zone) : '—',
            <span class={css}>{r.outcome}</span>,
            success ? localTime(success.succeededAt, zone) : '—',
          ];
        }}
      />
    );
    return {
      title: `Today — ${deps.companies.find((c) => c.id === req.company)?.name ?? req.company}`,
      body: render(
        <>
          {onboarding}
          {lists}
          <h2>Jobs</h2>
          {jobs}
          <p class="muted">Times in {zone}.</p>
        </>,
      ),
    };
  }),
};
