// Approvals: each signing basket waiting at the bank, with its totals and every payment in it.
// The SCA link is single use (spec §3.4): no page carries it, nothing fetches or prefetches it;
// an approver asks for it with a POST, which records in the audit trail that it was shown to
// them, and only that answer holds it.
import type { StoredPayment, WaitingBasket } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import {
  csrfField,
  esc,
  facts,
  hasRole,
  href,
  link,
  pager,
  problem,
  table,
  totals,
  visibleLine,
  when,
} from './html.js';
import { loadPage } from './load-page.js';

/** Payments shown inline per basket on the list; the basket's own page pages through all of them. */
const INLINE_LINES = 20;

function linkForm(req: PageRequest, basket: WaitingBasket): string {
  if (!basket.hasLink) return '<p>No approval link issued yet.</p>';
  if (!hasRole(req, 'approver')) return '<p>An approver can open the approval link from here.</p>';
  return (
    `<form method="post" action="/console/approvals/${esc(encodeURIComponent(basket.id))}/link?company=${esc(encodeURIComponent(req.company))}">` +
    `${csrfField(req)}<button type="submit">Show the approval link (single use; recorded)</button></form>`
  );
}

/** Payment lines with creditor and amount as the person may see them (payroll hidden without the role). */
export function linesTable(
  deps: ConsoleDeps,
  req: PageRequest,
  caption: string,
  lines: readonly StoredPayment[],
): string {
  return table(
    caption,
    ['End-to-end id', 'Debtor account', 'Creditor', 'Creditor IBAN', 'Amount', 'Execution date'],
    lines.map((p) => {
      const v = visibleLine(deps, req, p);
      return [
        link(href(`/console/payments/${encodeURIComponent(p.id)}`, req), p.endToEndId),
        esc(p.debtorIban),
        v.creditor,
        v.creditorIban,
        v.amount,
        esc(p.requestedExecutionDate),
      ];
    }),
  );
}

function basketFacts(deps: ConsoleDeps, req: PageRequest, b: WaitingBasket): string {
  return facts(`Basket ${b.id}`, [
    ['State', esc(b.state)],
    ['Bank basket id', esc(b.bankBasketId ?? '–')],
    ['Created', when(deps, req, b.createdAt)],
    ['Link expires', when(deps, req, b.scaLinkExpiresAt)],
    ['Bulks', esc(String(b.bulkCount))],
    ['Payments', esc(String(b.lineCount))],
    ['Totals', totals(b.totals)],
  ]);
}

export const approvalsPage: ConsolePage = {
  path: '/console/approvals',
  nav: 'Approvals',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.consoleViews.waitingBaskets(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
      limit: 10,
    });
    const sections = await Promise.all(
      page.rows.map(async (b) => {
        const lines = await deps.store.consoleViews.basketPayments(b.id, { limit: INLINE_LINES });
        const more = lines.next
          ? `<p>${link(href(`/console/approvals/${encodeURIComponent(b.id)}`, req), `All ${b.lineCount} payments of this basket`)}</p>`
          : '';
        return [
          `<section><h2>Basket ${esc(b.id)}</h2>`,
          basketFacts(deps, req, b),
          linkForm(req, b),
          linesTable(deps, req, `Payments in basket ${b.id}`, lines.rows),
          more,
          '</section>',
        ].join('\n');
      }),
    );
    return {
      title: 'Approvals waiting',
      body: [
        sections.length ? sections.join('\n') : '<p>No basket is waiting for approval.</p>',
        pager('/console/approvals', req, page.next),
      ].join('\n'),
    };
  }),
};

export const basketPage: ConsolePage = {
  path: '/console/approvals/:id',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const basket = await deps.store.consoleViews.basket(req.company, req.params.id ?? '');
    if (!basket) return problem('No such basket', 'The company has no signing basket with this id.', 404);
    const lines = await deps.store.consoleViews.basketPayments(basket.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    return {
      title: `Signing basket ${basket.id}`,
      body: [
        basketFacts(deps, req, basket),
        ['created', 'link_issued'].includes(basket.state) ? linkForm(req, basket) : '',
        linesTable(deps, req, 'Payments in the basket', lines.rows),
        pager(`/console/approvals/${encodeURIComponent(basket.id)}`, req, lines.next),
      ].join('\n'),
    };
  }),
};

/** Shows a waiting basket's SCA link to an approver, after recording that it was shown to them. */
export const showLinkAction: ConsoleAction = {
  path: '/console/approvals/:id/link',
  role: 'approver',
  async handle(deps, req) {
    // The shell checked the role already; the link is an approver's only, so this checks again.
    if (!hasRole(req, 'approver'))
      return problem('Not allowed', 'Only an approver of this company may see an approval link.', 403);
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
      body: [
        '<p>The link is single use: open it once, to approve at the bank. That it was shown to you is recorded.</p>',
        `<p><a href="${esc(link.link)}" rel="noreferrer noopener" referrerpolicy="no-referrer">Approve at the bank</a></p>`,
        `<p>Valid until ${when(deps, req, link.expiresAt)}.</p>`,
      ].join('\n'),
    };
  },
};
