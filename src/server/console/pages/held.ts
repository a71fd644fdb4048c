// Held duplicates: the company's lines held as likely duplicates of a payment accepted from
// another file or of an earlier line of their own (same creditor account, amount and
// reference), oldest first. An operator releases
// one (the next submit sends it) or drops it (never sent; the ERP's status file shows it
// cancelled) through the same use case as `settle payments release|drop` (jobs/held-payments.ts),
// which keeps the decision on the held row and writes it to the audit trail.
import { decideHold } from '../../../../jobs/held-payments.js';
import type { HeldPayment, HoldDecision } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { esc, href, link, pager, table, when } from './html.js';
import { loadPage } from './load-page.js';
import { decisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';

const DECISIONS: { verb: string; decision: HoldDecision; label: string }[] = [
  { verb: 'release', decision: 'released', label: 'Release (not a duplicate: send it)' },
  { verb: 'drop', decision: 'dropped', label: 'Reject (a duplicate: never send it)' },
];

function decisionForms(req: PageRequest, h: HeldPayment): string {
  if (!isOperator(req)) return '';
  return DECISIONS.map((d) =>
    decisionForm(req, {
      path: `/console/held/${encodeURIComponent(h.id)}/${d.verb}`,
      id: `held-${h.id}-${d.verb}`,
      button: d.label,
    }),
  ).join('\n');
}

export const heldPage: ConsolePage = {
  path: '/console/held',
  nav: 'Held duplicates',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.heldPayments(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const rows = page.rows.map((h) => [
      `<span id="held-${esc(h.id)}">${link(href(`/console/files/${encodeURIComponent(h.fileId)}`, req), h.fileName)}, line ${esc(String(h.lineNumber))}</span>`,
      link(href(`/console/payments/${encodeURIComponent(h.paymentId)}`, req), h.endToEndId),
      `${esc(h.reason)}<br>${link(href(`/console/payments/${encodeURIComponent(h.matchedPaymentId)}`, req), 'The payment it looks like')}`,
      when(deps, req, h.heldAt),
      decisionForms(req, h),
    ]);
    return {
      title: 'Held duplicates',
      body: [
        '<p>These lines look like a payment already accepted from another file, or an earlier line of their own file. Nothing is sent until a person decides.</p>',
        table(
          'Lines held as likely duplicates, oldest first',
          ['File and line', 'End-to-end id', 'Why held', 'Held', 'Decide'],
          rows,
        ),
        pager('/console/held', req, page.next),
      ].join('\n'),
    };
  }),
};

function holdAction(verb: string, decision: HoldDecision): ConsoleAction {
  return {
    path: `/console/held/:id/${verb}`,
    // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
    role: 'viewer',
    async handle(deps, req) {
      const refused = refuseUnlessOperator(req, 'release or reject a held payment');
      if (refused) return refused;
      const reason = reasonOf(req);
      if ('refused' in reason) return reason.refused;
      return runDecision(deps, req, 'Not decided', async () => {
        await decideHold(deps.store, {
          ref: req.params.id ?? '',
          decision,
          reason: reason.reason,
          actor: req.origin.actor,
          origin: auditOrigin(req.origin),
          company: req.company,
        });
        return { redirect: href('/console/held', req) };
      });
    },
  };
}

export const holdActions: ConsoleAction[] = DECISIONS.map((d) => holdAction(d.verb, d.decision));
