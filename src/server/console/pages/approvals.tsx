// Approvals: each signing basket waiting at the bank, with its totals and every payment in it.
// The SCA link is single use (spec §3.4): no page carries it, nothing fetches or prefetches it;
// an approver asks for it with a POST, which records in the audit trail that it was shown to
// them, and only that answer holds it.
import { releasedFromHoldText } from '../../../domain/controls/release.js';
import { Amount, Facts, Link, render, Table } from '../../../html/index.js';
import type { ApprovalMarks, StoredPayment, WaitingBasket } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import {
  CsrfField,
  may,
  href,
  mayShow,
  Pager,
  payrollAccounts,
  payrollViewer,
  problem,
  roleRefusal,
  visibleLine,
  VisibleTotals,
  when,
} from './parts.js';

/** Payments shown inline per basket on the list; the basket's own page pages through all of them. */
const INLINE_LINES = 20;

function LinkForm({ req, basket }: { req: PageRequest; basket: WaitingBasket }) {
  if (!basket.hasLink) return <p>No approval link issued yet.</p>;
  if (!may(req, 'show-approval-link')) return <p>An approver can open the approval link from here.</p>;
  return (
    <form
      method="post"
      action={`/console/approvals/${encodeURIComponent(basket.id)}/link?company=${encodeURIComponent(req.company)}`}
    >
      <CsrfField req={req} />
      <button type="submit">Show the approval link (single use; recorded)</button>
    </form>
  );
}

/** A basket's state in plain words, next to its code. */
const BASKET_STATES: Readonly<Record<string, string>> = {
  pending: 'Not yet at the bank',
  created: 'At the bank; the approval link is not issued yet',
  link_issued: 'Waiting for an approver: the approval link is issued',
  authorised: 'Approved at the bank',
  rejected: 'Refused by the approver or the bank',
  failed: 'Failed at the bank',
};

function basketState(state: string): string {
  const words = BASKET_STATES[state];
  return words ? `${state} — ${words}` : state;
}

/** Payment lines with creditor and amount as the person may see them (payroll hidden without the role). */
export function LinesTable(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  caption: string;
  lines: readonly StoredPayment[];
}) {
  const { deps, req } = props;
  return (
    <Table
      caption={props.caption}
      head={['End-to-end id', 'Debtor account', 'Creditor', 'Creditor IBAN', 'Amount', 'Execution date']}
      rows={props.lines}
      empty="none"
      cells={(p) => {
        const v = visibleLine(deps, req, p);
        return [
          <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
          p.debtorIban,
          v.creditor,
          v.creditorIban,
          v.amount,
          p.requestedExecutionDate,
        ];
      }}
    />
  );
}

/** A basket's lines as an approver reads a payment order: payee, account, amount, what for, from which file. */
function OrderTable(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  caption: string;
  lines: readonly StoredPayment[];
  marks: ApprovalMarks;
}) {
  const { deps, req, marks } = props;
  return (
    <Table
      caption={props.caption}
      head={[
        'ERP reference',
        'Creditor',
        'Creditor account',
        'Amount',
        'Remittance',
        'Debtor account',
        'Execution date',
        'File',
      ]}
      rows={props.lines}
      empty="none"
      cells={(p) => {
        const v = visibleLine(deps, req, p);
        const notes = v.hidden
          ? []
          : [
              !marks.paidBefore.has(p.creditorIban) && 'first payment to this account',
              marks.released.has(p.id) && releasedFromHoldText(marks.released.get(p.id)!),
            ].filter((n): n is string => typeof n === 'string');
        return [
          <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
          [v.creditor, ...notes.map((n) => [<br />, <span class="warn">{n}</span>])],
          v.creditorIban,
          v.amount,
          v.remittance || p.creditorReference || '–',
          p.debtorIban,
          p.requestedExecutionDate,
          marks.fileNames.get(p.fileId) ?? p.fileId,
        ];
      }}
    />
  );
}

/** A basket's totals as the person may see them: without payroll lines (src/domain/payroll.ts) for those without the role. */
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
  // A payroll account's row is left out whole (the SQL left its lines out already).
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
}) {
  const { deps, req, basket: b } = props;
  const { byAccount, payroll } = props.totals;
  return (
    <Facts
      caption={`Basket ${b.id}`}
      rows={[
        ['State', basketState(b.state)],
        ['Basket', <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>{b.id}</Link>],
        ['Bank basket id', b.bankBasketId ?? '–'],
        ['Created', when(deps, req, b.createdAt)],
        ['Link expires', when(deps, req, b.scaLinkExpiresAt)],
        ['Bulks', String(b.bulkCount)],
        ['Payments', String(b.lineCount)],
        ['Totals', <VisibleTotals deps={deps} req={req} byCurrency={b.totals} payroll={payroll} />],
        ...byAccount.map(
          (t) => [`Total from ${t.debtorIban}`, <Amount money={{ minor: t.minor, currency: t.currency }} />] as const,
        ),
      ]}
    />
  );
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
        const lines = await deps.store.consoleViews.basketPayments(b.id, { limit: INLINE_LINES });
        const totals = await basketTotals(deps, req, b);
        return (
          <section>
            <h2>
              {`${b.lineCount} payment${b.lineCount === 1 ? '' : 's'}, `}
              <VisibleTotals deps={deps} req={req} byCurrency={b.totals} payroll={totals.payroll} />
              {', waiting for approval'}
            </h2>
            <BasketFacts deps={deps} req={req} basket={b} totals={totals} />
            <LinkForm req={req} basket={b} />
            <OrderTable
              deps={deps}
              req={req}
              caption={`Payments in basket ${b.id}`}
              lines={lines.rows}
              marks={await deps.store.consoleViews.approvalMarks(req.company, lines.rows)}
            />
            {lines.next && (
              <p>
                <Link href={href(`/console/approvals/${encodeURIComponent(b.id)}`, req)}>
                  {`All ${b.lineCount} payments of this basket`}
                </Link>
              </p>
            )}
          </section>
        );
      }),
    );
    return {
      title: 'Approvals waiting',
      body: render(
        <>
          {sections.length ? sections : <p>No basket is waiting for approval.</p>}
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
    if (!basket) return problem('No such basket', 'The company has no signing basket with this id.', 404);
    const lines = await deps.store.consoleViews.basketPayments(basket.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    return {
      title: `Signing basket ${basket.id}`,
      body: render(
        <>
          <BasketFacts deps={deps} req={req} basket={basket} totals={await basketTotals(deps, req, basket)} />
          {['created', 'link_issued'].includes(basket.state) && <LinkForm req={req} basket={basket} />}
          <OrderTable
            deps={deps}
            req={req}
            caption="Payments in the basket"
            lines={lines.rows}
            marks={await deps.store.consoleViews.approvalMarks(req.company, lines.rows)}
          />
          <Pager path={`/console/approvals/${encodeURIComponent(basket.id)}`} req={req} next={lines.next} />
        </>,
      ),
    };
  }),
};

/** Shows a waiting basket's SCA link to an approver, after recording that it was shown to them. */
export const showLinkAction: ConsoleAction = {
  path: '/console/approvals/:id/link',
  async handle(deps, req) {
    // The shell checked the role already; the link is an approver's only, so this checks again.
    if (!may(req, 'show-approval-link'))
      return roleRefusal('approver', 'Only an approver of this company may see an approval link.');
    const id = req.params.id ?? '';
    const basket = await deps.store.consoleViews.basket(req.company, id);
    if (!basket) return problem('No such basket', 'The company has no signing basket with this id.', 404);
    if (!['created', 'link_issued'].includes(basket.state))
      return problem('Not waiting', `Basket ${id} is ${basket.state}; it needs no approval.`, 409);
    const link = await deps.store.consoleViews.basketLink(req.company, id);
    const now = deps.clock.now();
    if (!link || (link.expiresAt && link.expiresAt <= now))
      return problem(
        'No valid link',
        'This basket has no approval link that is still valid; the approve job issues a new one on its next run.',
        409,
      );
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
      title: `Approval link of basket ${id}`,
      body: render(
        <>
          <p>The link is single use: open it once, to approve at the bank. That it was shown to you is recorded.</p>
          <p>
            <a href={link.link} rel="noreferrer noopener" referrerpolicy="no-referrer">
              Approve at the bank
            </a>
          </p>
          <p>Valid until {when(deps, req, link.expiresAt)}.</p>
        </>,
      ),
    };
  },
};
