// Unknown bulks: the company's bulks whose outcome at the bank is not known (`unknown`: no
// answer to the send; `attention`: not found at the bank days after its execution date), oldest
// first. settle never sends such a bulk again by itself (architecture §2.3); an operator who
// checked with the bank records what it said — the bank has it (its payment id), or it does not
// (its lines are reported to the ERP as rejected) — through the same use case as
// `settle payments resolve` (jobs/payments/resolve-by-hand.ts).
import { resolveBulkByHand, type HandResolution } from '../../../../jobs/payments/index.js';
import type { StoredBulk } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';
import { href, Pager, payrollAccounts, problem, VisibleTotals, when } from './parts.js';

const RESOLUTIONS: { value: HandResolution; label: string }[] = [
  { value: 'at-bank', label: 'The bank has it (give its payment id)' },
  { value: 'not-at-bank', label: 'The bank confirms it never received it (its lines are reported as rejected)' },
];

function ResolveForm({ req, bulk }: { req: PageRequest; bulk: StoredBulk }) {
  if (!isOperator(req)) return null;
  const id = `bulk-${bulk.id}`;
  return (
    <DecisionForm
      req={req}
      path={`/console/bulks/${encodeURIComponent(bulk.id)}/resolve`}
      id={id}
      button="Record"
      fields={
        <>
          <fieldset>
            <legend>What the bank said</legend>
            {RESOLUTIONS.map((r) => (
              <label>
                <input type="radio" name="as" value={r.value} required /> {r.label}
              </label>
            ))}
          </fieldset>
          <label for={`${id}-payment`}>Bank payment id</label> <input id={`${id}-payment`} name="paymentId" />
        </>
      }
    />
  );
}

export const bulksPage: ConsolePage = {
  path: '/console/bulks',
  nav: 'nav.bulks',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.unknownBulks(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const payroll = await deps.store.consoleViews.payrollParts(
      'bulk',
      page.rows.map((b) => b.id),
      payrollAccounts(deps, req.company),
    );
    return {
      title: 'Unknown bulks',
      body: render(
        <>
          <p>
            The bank did not answer when these bulks were sent, or did not have them days after their execution date.
            settle never sends them again by itself: ask the bank, then record what it said. Each bulk's id leads to its
            file and lines.
          </p>
          <Table
            caption="Bulks whose outcome is unknown, oldest first"
            head={[
              'Bulk',
              'State',
              'Debtor account',
              'Execution date',
              'Payments',
              'Totals',
              'First sent',
              'Attempts',
              'Resolve',
            ]}
            rows={page.rows}
            empty="none"
            cells={(b) => [
              <span id={`bulk-${b.id}`}>
                <Link href={href(`/console/files/${encodeURIComponent(b.fileId)}`, req)}>{b.id}</Link>
              </span>,
              b.state,
              b.debtorIban,
              b.executionDate,
              String(b.lineCount),
              <VisibleTotals deps={deps} req={req} byCurrency={b.totals} payroll={payroll.get(b.id)} />,
              when(deps, req, b.firstSentAt),
              String(b.attempts),
              <ResolveForm req={req} bulk={b} />,
            ]}
          />
          <Pager path="/console/bulks" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

export const resolveBulkAction: ConsoleAction = {
  path: '/console/bulks/:id/resolve',
  // Every person of the company reaches the action, which refuses all but operators itself: so
  // the router records a refusal in the audit trail (console/pages/operator.tsx).
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
