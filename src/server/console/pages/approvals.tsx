// Approvals: each signing basket waiting at the bank, read like a payment order: every payment
// with its creditor, account, amount, remittance, ERP reference, file and who dropped it, the
// marks of the payment controls, totals per debtor account, the deadline in the company's time
// and who saw the link and approved. A basket goes by settle's id; the bank's is one line away.
// The approval link is single use (spec §3.4): no page carries it, nothing fetches or prefetches it;
// an approver asks for it with a POST, which records in the audit trail that it was shown to
// them, and only that answer holds it.
import { Amount, Facts, Link, render, Table } from '../../../html/index.js';
import { currentLocale, format, t } from '../../../i18n/index.js';
import type { ApprovalMarks, BasketHistory, StoredPayment, WaitingBasket } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { BasketState, LinkDestination, LinkExpiry, localAt, totalsText } from './approval-parts.js';
import { loadPage } from './load-page.js';
import {
  CsrfField,
  may,
  codeText,
  href,
  mayShow,
  Pager,
  payrollAccounts,
  payrollViewer,
  problem,
  ruleText,
  roleRefusal,
  timeZoneOf,
  visibleLine,
  VisibleTotals,
} from './parts.js';

/** Payments shown inline per basket on the list; the basket's own page pages through all of them. */
const INLINE_PAYMENTS = 20;

function LinkForm({ req, basket }: { req: PageRequest; basket: WaitingBasket }) {
  if (!basket.hasLink) return <p>{t('approvals.noLink')}</p>;
  if (!may(req, 'show-approval-link')) return <p>{t('approvals.approverOnly')}</p>;
  return (
    <form
      method="post"
      action={`/console/approvals/${encodeURIComponent(basket.id)}/link?company=${encodeURIComponent(req.company)}`}
    >
      <CsrfField req={req} />
      <button type="submit">{t('approvals.showLink')}</button>
    </form>
  );
}

/** A basket's payments as an approver reads a payment order: payee, account, amount, what for, from which file and whom. */
function OrderTable(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  caption: string;
  payments: readonly StoredPayment[];
  marks: ApprovalMarks;
}) {
  const { deps, req, marks } = props;
  const locale = currentLocale();
  const head = [
    t('approvals.column.reference'),
    t('approvals.column.creditor'),
    t('approvals.column.creditorAccount'),
    t('approvals.column.amount'),
    t('approvals.column.remittance'),
    t('approvals.column.debtorAccount'),
    t('approvals.column.executionDate'),
    t('approvals.column.file'),
    t('approvals.column.droppedBy'),
  ];
  return (
    <div class="stack">
      <Table
        caption={props.caption}
        head={head}
        rows={props.payments}
        empty="–"
        row={(p) => {
          const v = visibleLine(deps, req, p);
          const released = marks.released.get(p.id);
          const notes = v.hidden
            ? []
            : [
                !marks.paidBefore.has(p.creditorIban) && t('approvals.mark.firstPayment'),
                released &&
                  t('approvals.mark.released', {
                    rules: format.list(released.rules.map(ruleText), locale),
                    count: released.releasedBy.length,
                    people: format.list(released.releasedBy, locale),
                  }),
              ].filter((n): n is string => typeof n === 'string');
          const dropped = marks.droppedBy.get(p.fileId);
          const cells = [
            <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
            [v.creditor, ...notes.map((n) => [<br />, <span class="warn">{n}</span>])],
            v.creditorIban,
            v.amount,
            v.remittance || p.creditorReference || t('approvals.none.remittance'),
            p.debtorIban,
            format.date(p.requestedExecutionDate, locale),
            marks.fileNames.get(p.fileId) ?? p.fileId,
            dropped ?? <span class="muted">{t('approvals.notRecorded')}</span>,
          ];
          return (
            <tr>
              {cells.map((c, i) => (
                <td data-label={head[i]}>{c}</td>
              ))}
            </tr>
          );
        }}
      />
    </div>
  );
}

/** A basket's totals as the person may see them: without payroll payments (src/domain/payroll.ts) for those without the role. */
async function basketTotals(deps: ConsoleDeps, req: PageRequest, basket: WaitingBasket) {
  const accounts = payrollAccounts(deps, req.company);
  const seesPayroll = payrollViewer(deps, req).seesPayroll;
  const [payroll, byAccount] = await Promise.all([
    deps.store.consoleViews.payrollParts('basket', [basket.id], accounts),
    deps.store.consoleViews.basketTotalsByAccount(
      basket.id,
      seesPayroll ? {} : { withoutPayroll: { debtorIbans: accounts } },
    ),
  ]);
  // A payroll account's row is left out whole (the SQL left its payments out already).
  return {
    payroll: payroll.get(basket.id),
    byAccount: byAccount.filter((t) => mayShow(deps, req, { account: t.debtorIban })),
  };
}

function BasketFacts(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  basket: WaitingBasket;
  totals: Awaited<ReturnType<typeof basketTotals>>;
  history: BasketHistory;
}) {
  const { deps, req, basket: b, history } = props;
  const { byAccount, payroll } = props.totals;
  const at = (d: Date | undefined) => localAt(deps, req, d);
  const shown = history.linkShown.map((s) => t('approvals.shownTo', { actor: s.actor, at: at(s.at) }));
  return (
    <Facts
      caption={t('approvals.facts', { basket: b.id })}
      rows={[
        [
          t('approvals.fact.basket'),
          <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>{b.id}</Link>,
        ],
        [t('approvals.fact.bankBasket'), b.bankBasketId ?? t('approvals.unknown')],
        [t('approvals.fact.state'), <BasketState state={b.state} />],
        [
          t('approvals.fact.approveBy'),
          <LinkExpiry deps={deps} req={req} expiresAt={b.approvalLinkExpiresAt} issuedAt={b.approvalLinkIssuedAt} />,
        ],
        [t('approvals.fact.created'), at(b.createdAt)],
        [t('approvals.fact.bulks'), String(b.bulkCount)],
        [t('approvals.fact.payments'), String(b.lineCount)],
        [t('approvals.fact.totals'), <VisibleTotals deps={deps} req={req} byCurrency={b.totals} payroll={payroll} />],
        ...byAccount.map(
          (row) =>
            [
              t('approvals.fact.totalFrom', { account: row.debtorIban }),
              <Amount money={{ minor: row.minor, currency: row.currency }} />,
            ] as const,
        ),
        [t('approvals.fact.linkShown'), shown.length ? format.list(shown, currentLocale()) : t('approvals.nobodyYet')],
        [
          t('approvals.fact.approved'),
          history.approvedAt ? t('approvals.approvedAt', { at: at(history.approvedAt) }) : t('approvals.notApproved'),
        ],
      ]}
    />
  );
}

/** The company's zone, named once on the page: every time on it is in that zone. */
function TimesIn({ deps, req }: { deps: ConsoleDeps; req: PageRequest }) {
  return <p class="muted">{t('approvals.timesIn', { zone: timeZoneOf(deps, req.company) })}</p>;
}

export const approvalsPage: ConsolePage = {
  path: '/console/approvals',
  nav: 'nav.approvals',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.consoleViews.waitingBaskets(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
      limit: 10,
    });
    const sections = await Promise.all(
      page.rows.map(async (b) => {
        const [payments, totals, history] = await Promise.all([
          deps.store.consoleViews.basketPayments(b.id, { limit: INLINE_PAYMENTS }),
          basketTotals(deps, req, b),
          deps.store.consoleViews.basketHistory(b.id),
        ]);
        return (
          <section>
            <h2>{t('approvals.heading', { count: b.lineCount, totals: totalsText(deps, req, b, totals.payroll) })}</h2>
            <BasketFacts deps={deps} req={req} basket={b} totals={totals} history={history} />
            <LinkForm req={req} basket={b} />
            <OrderTable
              deps={deps}
              req={req}
              caption={t('approvals.lines.caption', { basket: b.id })}
              payments={payments.rows}
              marks={await deps.store.consoleViews.approvalMarks(req.company, payments.rows)}
            />
            {payments.next && (
              <p>
                <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>
                  {t('approvals.allLines', { count: b.lineCount })}
                </Link>
              </p>
            )}
          </section>
        );
      }),
    );
    return {
      title: t('approvals.title'),
      body: render(
        <>
          <TimesIn deps={deps} req={req} />
          {sections.length > 0 && <LinkDestination deps={deps} req={req} />}
          {sections.length ? sections : <p>{t('approvals.none')}</p>}
          <Pager path="/console/approvals" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

export const basketPage: ConsolePage = {
  path: '/console/approvals/:id',
  load: loadPage(async (deps, req) => {
    const basket = await deps.store.consoleViews.basket(req.company, req.params.id ?? '');
    if (!basket) return problem(t('approvals.noBasket.title'), t('approvals.noBasket.body'), 404);
    const [payments, totals, history] = await Promise.all([
      deps.store.consoleViews.basketPayments(basket.id, {
        ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
      }),
      basketTotals(deps, req, basket),
      deps.store.consoleViews.basketHistory(basket.id),
    ]);
    const waiting = ['created', 'link_issued'].includes(basket.state);
    return {
      title: t('approvals.basketTitle', { totals: totalsText(deps, req, basket, totals.payroll) }),
      body: render(
        <>
          <TimesIn deps={deps} req={req} />
          <BasketFacts deps={deps} req={req} basket={basket} totals={totals} history={history} />
          {waiting && <LinkDestination deps={deps} req={req} />}
          {waiting && <LinkForm req={req} basket={basket} />}
          <OrderTable
            deps={deps}
            req={req}
            caption={t('approvals.lines.caption', { basket: basket.id })}
            payments={payments.rows}
            marks={await deps.store.consoleViews.approvalMarks(req.company, payments.rows)}
          />
          <Pager path={`/console/approvals/${encodeURIComponent(basket.id)}`} req={req} next={payments.next} />
        </>,
      ),
    };
  }),
};

/** Shows a waiting basket's approval link to an approver, after recording that it was shown to them. */
export const showLinkAction: ConsoleAction = {
  path: '/console/approvals/:id/link',
  async handle(deps, req) {
    // The shell checked the role already; the link is an approver's only, so this checks again.
    if (!may(req, 'show-approval-link')) return roleRefusal('approver', t('approvals.link.notAllowed.body'));
    const id = req.params.id ?? '';
    const basket = await deps.store.consoleViews.basket(req.company, id);
    if (!basket) return problem(t('approvals.noBasket.title'), t('approvals.noBasket.body'), 404);
    if (!['created', 'link_issued'].includes(basket.state))
      return problem(
        t('approvals.link.notWaiting.title'),
        t('approvals.link.notWaiting.body', { basket: id, state: codeText('basket', basket.state) }),
        409,
      );
    const link = await deps.store.consoleViews.basketLink(req.company, id);
    const now = deps.clock.now();
    if (!link || (link.expiresAt && link.expiresAt <= now))
      return problem(t('approvals.link.noValid.title'), t('approvals.link.noValid.body'), 409);
    await deps.store.audit.append({
      actor: req.origin.actor,
      action: 'approval.link_shown',
      subject: { type: 'basket', id },
      origin: auditOrigin(req.origin),
      details: { company: req.company, basket: id, bankBasketId: basket.bankBasketId ?? null },
    });
    return {
      audited: true,
      status: 200,
      title: t('approvals.link.title', { basket: id }),
      body: render(
        <>
          <p>{t('approvals.link.once')}</p>
          <p>
            <a href={link.link} rel="noreferrer noopener" referrerpolicy="no-referrer">
              {t('approvals.link.approve')}
            </a>
          </p>
          <p>
            {t('approvals.link.validUntil', {
              at: localAt(deps, req, link.expiresAt),
              zone: timeZoneOf(deps, req.company),
            })}
          </p>
        </>,
      ),
    };
  },
};
