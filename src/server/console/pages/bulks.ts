// Unknown bulks: the company's bulks whose outcome at the bank is not known (`unknown`: no
// answer to the send; `attention`: not found at the bank days after its execution date), oldest
// first. settle never sends such a bulk again by itself (architecture §2.3); an operator who
// checked with the bank records what it said — the bank has it (its payment id), or it does not
// (its lines are reported to the ERP as rejected) — through the same use case as
// `settle payments resolve` (jobs/payments/resolve-by-hand.ts).
import { resolveBulkByHand, type HandResolution } from '../../../../jobs/payments/resolve-by-hand.js';
import type { StoredBulk } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { esc, href, link, pager, problem, table, totals, when } from './html.js';
import { loadPage } from './load-page.js';
import { decisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';

const RESOLUTIONS: { value: HandResolution; label: string }[] = [
  { value: 'at-bank', label: 'The bank has it (give its payment id)' },
  { value: 'not-at-bank', label: 'The bank confirms it never received it (its lines are reported as rejected)' },
];

function resolveForm(req: PageRequest, bulk: StoredBulk): string {
  if (!isOperator(req)) return '';
  const id = `bulk-${bulk.id}`;
  const radios = RESOLUTIONS.map(
    (r) => `<label><input type="radio" name="as" value="${r.value}" required> ${esc(r.label)}</label>`,
  ).join('');
  return decisionForm(req, {
    path: `/console/bulks/${encodeURIComponent(bulk.id)}/resolve`,
    id,
    fields:
      `<fieldset><legend>What the bank said</legend>${radios}</fieldset>` +
      `<label for="${esc(id)}-payment">Bank payment id</label> <input id="${esc(id)}-payment" name="paymentId">`,
    button: 'Record',
  });
}

export const bulksPage: ConsolePage = {
  path: '/console/bulks',
  nav: 'Unknown bulks',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.unknownBulks(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const rows = page.rows.map((b) => [
      `<span id="bulk-${esc(b.id)}">${link(href(`/console/files/${encodeURIComponent(b.fileId)}`, req), b.id)}</span>`,
      esc(b.state),
      esc(b.debtorIban),
      esc(b.executionDate),
      esc(String(b.lineCount)),
      totals(b.totals),
      when(deps, req, b.firstSentAt),
      esc(String(b.attempts)),
      resolveForm(req, b),
    ]);
    return {
      title: 'Unknown bulks',
      body: [
        '<p>The bank did not answer when these bulks were sent, or did not have them days after their execution date. ' +
          "settle never sends them again by itself: ask the bank, then record what it said. Each bulk's id leads to its file and lines.</p>",
        table(
          'Bulks whose outcome is unknown, oldest first',
          [
            'Bulk',
            'State',
            'Debtor account',
            'Execution date',
            'Payments',
            'Totals',
            'First sent',
            'Attempts',
            'Resolve',
          ],
          rows,
        ),
        pager('/console/bulks', req, page.next),
      ].join('\n'),
    };
  }),
};

export const resolveBulkAction: ConsoleAction = {
  path: '/console/bulks/:id/resolve',
  // Every person of the company reaches the action, which refuses all but operators itself: so
  // the router records a refusal in the audit trail (console/operator.ts).
  role: 'viewer',
  async handle(deps, req) {
    const refused = refuseUnlessOperator(req, 'resolve an unknown bulk');
    if (refused) return refused;
    const reason = reasonOf(req);
    if ('refused' in reason) return reason.refused;
    const as = RESOLUTIONS.find((r) => r.value === req.form.as)?.value;
    if (!as) return problem('What did the bank say?', 'Choose whether the bank has the bulk or not.', 400);
    if (as === 'at-bank' && !(req.form.paymentId ?? '').trim())
      return problem('Payment id missing', "Give the bank's payment id of the bulk, as the bank shows it.", 400);
    const id = req.params.id ?? '';
    return runDecision(deps, req, 'Not resolved', async () => {
      await resolveBulkByHand(deps.store, {
        bulkId: id,
        as,
        ...(req.form.paymentId ? { paymentId: req.form.paymentId } : {}),
        reason: reason.reason,
        actor: req.origin.actor,
        origin: auditOrigin(req.origin),
        company: req.company,
      });
      return { redirect: href('/console/bulks', req) };
    });
  },
};
