// Today: what needs a person in the chosen company — rejected files, unknown bulks, approvals
// waiting with their link's expiry, open reconciliation findings, consents and approval links
// near expiry, statement gaps — and the last run of each job. Each list is one keyset page read
// in the database for this company alone (src/store/today-views.ts); its "more" link carries
// that list's cursor (`?after-<list>=`), so no list ever reads all its rows. Above them, in red,
// a company that is not onboarded (no usable consent or no enabled account) says what is missing.
// A waiting basket goes by settle's id, with its state in words, its totals and the time left on
// its link; when the link went to no one, the list says so and how an approver gets it.
import { Link, render, Table, type Child, type JSX } from '../../../html/index.js';
import { currentLocale, t } from '../../../i18n/index.js';
import type { Paged, PageQuery } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { onboardingOfAll } from '../../../domain/onboarding.js';
import { loadPage } from './load-page.js';
import { BasketState, LinkDestination, LinkExpiry, localAt, totalsText } from './approval-parts.js';
import { href, mayRead, payrollAccounts, timeZoneOf, withQuery } from './parts.js';
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
  /** Said under the list's heading when it has rows. */
  note?: Child;
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
  const first = after && (
    <Link href={withQuery('/console/', req, { [`after-${s.key}`]: undefined }) + `#${s.key}`}>
      {t('today.firstOnes')}
    </Link>
  );
  const more = page.next && (
    <Link href={withQuery('/console/', req, { [`after-${s.key}`]: page.next }) + `#${s.key}`}>{t('today.more')}</Link>
  );
  return (
    <>
      <h2 id={s.key}>
        {t('today.count', { title: s.title, count: page.rows.length, more: page.next ? 'yes' : 'no' })}
      </h2>
      {page.rows.length > 0 && s.note}
      {/* On a phone each row stacks, every cell named by its column (style.ts). */}
      <div class="stack">
        <Table
          caption={s.title}
          captionClass="skip"
          head={s.head}
          rows={page.rows}
          row={(r) => (
            <tr>
              {s.cells(r).map((c, i) => (
                <td data-label={s.head[i]}>{c}</td>
              ))}
            </tr>
          )}
          empty={{ note: s.empty }}
        />
      </div>
      {(first || more) && (
        <nav aria-label={t('today.pagesOf', { title: s.title })}>
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
  const at = (d: Date | undefined) => localAt(deps, req, d);
  // A consent within alerts.warnBefore is marked, as the alerts warn of it; a past one as expired.
  const soon = (d: Date) =>
    d <= now ? (
      <>
        {' '}
        <span class="bad">({t('approvals.expiry.expired')})</span>
      </>
    ) : (
      d <= horizon && (
        <>
          {' '}
          <span class="warn">({t('approvals.expiry.soon')})</span>
        </>
      )
    );
  return [
    section(req, {
      key: 'rejected',
      title: t('today.rejected.title'),
      head: [t('today.column.file'), t('today.column.received'), t('today.column.lines'), t('today.column.why')],
      empty: t('today.rejected.empty'),
      load: (q) => deps.store.today.rejectedFiles(company, q),
      cells: (f) => [
        <Link href={href(`/console/files/${encodeURIComponent(f.id)}`, req)}>{f.fileName}</Link>,
        at(f.receivedAt),
        <span class="num">{f.lineCount}</span>,
        // The stored summary is the validator's English: another language points to the file's
        // error report, which speaks the company's language (problem by problem, what to change).
        currentLocale() === 'en' || f.errorSummary === undefined ? (
          (f.errorSummary ?? '')
        ) : (
          <Link href={href(`/console/files/${encodeURIComponent(f.id)}`, req) + '#error-report'}>
            {t('today.rejected.seeReport')}
          </Link>
        ),
      ],
    }),
    section(req, {
      key: 'bulks',
      title: t('today.bulks.title'),
      head: [
        t('today.column.bulk'),
        t('today.column.debtorAccount'),
        t('today.column.executionDate'),
        t('today.column.lines'),
      ],
      empty: t('today.bulks.empty'),
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
      title: t('today.approvals.title'),
      head: [
        t('today.column.basket'),
        t('today.column.state'),
        t('today.column.payments'),
        t('today.column.totals'),
        t('today.column.approveBy'),
      ],
      empty: t('today.approvals.empty'),
      note: <LinkDestination deps={deps} req={req} />,
      load: async (q) => {
        const page = await deps.store.consoleViews.waitingBaskets(company, q);
        const payroll = await deps.store.consoleViews.payrollParts(
          'basket',
          page.rows.map((b) => b.id),
          payrollAccounts(deps, company),
        );
        return { ...page, rows: page.rows.map((basket) => ({ basket, payroll: payroll.get(basket.id) })) };
      },
      cells: ({ basket: b, payroll }) => [
        // settle's basket id, as on Approvals and in the approval notice: one id per basket.
        <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>{b.id}</Link>,
        <BasketState state={b.state} />,
        <span class="num">{b.lineCount}</span>,
        totalsText(deps, req, b, payroll),
        <LinkExpiry deps={deps} req={req} expiresAt={b.approvalLinkExpiresAt} issuedAt={b.approvalLinkIssuedAt} />,
      ],
    }),
    section(req, {
      key: 'findings',
      title: t('today.findings.title'),
      head: [t('today.column.finding'), t('today.column.since')],
      empty: t('today.findings.empty'),
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
      title: t('today.consents.title'),
      head: [t('today.column.bank'), t('today.column.consent'), t('today.column.status'), t('today.column.expires')],
      empty: t('today.consents.empty'),
      load: (q) => deps.store.today.consentsExpiringBy(company, horizon, q),
      cells: (c) => [c.bankId, c.consentId, c.status, [at(c.expiresAt), soon(c.expiresAt)]],
    }),
    section(req, {
      key: 'links',
      title: t('today.links.title'),
      head: [t('today.column.basket'), t('today.column.linkExpires')],
      empty: t('today.links.empty'),
      load: (q) => deps.store.today.linksExpiringBy(company, linkHorizon, q),
      cells: (l) => [
        <Link href={href(`/console/approvals/${encodeURIComponent(l.basketId)}`, req)}>{l.basketId}</Link>,
        <LinkExpiry deps={deps} req={req} expiresAt={l.expiresAt} issuedAt={l.issuedAt} />,
      ],
    }),
    section(req, {
      key: 'gaps',
      title: t('today.gaps.title'),
      head: [t('today.column.account'), t('today.column.day'), t('today.column.continuity'), t('today.column.break')],
      empty: t('today.gaps.empty'),
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
        {t('today.notOnboarded', { company: company.name })}
      </h2>
      <p class="bad">
        {t('today.why', {
          missing: status.missing.length === 2 ? 'both' : status.missing[0] === 'consent' ? 'consent' : 'account',
        })}
      </p>
      <p>{t('today.toOnboard')}</p>
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
    const zone = timeZoneOf(deps, req.company);
    const lists = await Promise.all(sections(deps, req));
    const onboarding = company && (await notOnboarded(deps, company));
    // One row per job (latestPerJob), and each job's last success per company: both bounded by
    // the number of jobs, not by history.
    const runs = await deps.store.jobRuns.latestPerJob();
    const successes = (await deps.store.jobSuccesses.list()).filter((s) => s.company === req.company);
    const at = (d: Date | string) => localAt(deps, req, typeof d === 'string' ? new Date(d) : d);
    const jobs = (
      <Table
        caption={t('today.jobs.caption')}
        captionClass="skip"
        head={[
          t('today.column.job'),
          t('today.column.started'),
          t('today.column.finished'),
          t('today.column.outcome'),
          t('today.column.lastSuccess', { company: req.company }),
        ]}
        rows={runs}
        empty={{ note: t('today.jobs.empty') }}
        cells={(r) => {
          const success = successes.find((s) => s.job === r.job);
          const css = r.outcome === 'ok' ? 'ok' : r.outcome === 'failed' ? 'bad' : 'warn';
          return [
            r.job,
            at(r.startedAt),
            r.finishedAt ? at(r.finishedAt) : '—',
            <span class={css}>{r.outcome}</span>,
            success ? at(success.succeededAt) : '—',
          ];
        }}
      />
    );
    return {
      title: t('today.title', { company: company?.name ?? req.company }),
      body: render(
        <>
          <p class="muted">{t('today.timesIn', { zone })}</p>
          {onboarding}
          {lists}
          <h2>{t('today.jobs.title')}</h2>
          {jobs}
        </>,
      ),
    };
  }),
};
