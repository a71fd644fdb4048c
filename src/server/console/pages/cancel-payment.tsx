// Cancel a waiting payment from its page (docs/cancellation.md). The preview comes first and
// changes nothing (jobs/payments/cancel-review.ts): the line, and when its bulk is already at the
// bank every line of that bulk, since the bank cancels whole bulks only; a payment the bank
// already accepted (ACSP or later) gets the reason instead of a form. The operator then confirms
// with a reason, and the same use case as `settle payments cancel` (jobs/payments/cancel.ts)
// carries it out, or, where four eyes are configured, stores the request for a second operator
// (the Cancellations page).
import { previewCancellation } from '../../../../jobs/payments/cancel-review.js';
import { cancelPayment, type CancelResult } from '../../../../jobs/payments/cancel.js';
import { isSettleError } from '../../../domain/errors.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import type { StoredPayment } from '../../../store/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, reasonOf, refuseUnlessOperator, runDecision, withoutBank } from './operator.js';
import { href, problem, visibleLine } from './parts.js';

/** Payment lines with creditor and amount as the person may see them (payroll hidden without the role). */
function LinesTable(props: { deps: ConsoleDeps; req: PageRequest; caption: string; lines: readonly StoredPayment[] }) {
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

/** Line states after which a payment's page offers no cancellation (the bank is done with it). */
const FINAL = new Set(['CANC', 'RJCT', 'ACSC', 'ACCC']);

/** The link on a payment's page, for an operator, while the payment may still wait. */
export function CancelLink({ req, payment }: { req: PageRequest; payment: { id: string; state: string } }) {
  if (FINAL.has(payment.state)) return null;
  return (
    <p>
      <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}/cancel`, req)}>Cancel this payment…</Link>
    </p>
  );
}

export const cancelPreviewPage: ConsolePage = {
  path: '/console/payments/:id/cancel',
  role: 'operator',
  load: loadPage(async (deps, req) => {
    const ops = deps.operations;
    if (!ops) return withoutBank();
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem('No such payment', 'The company has no payment with this id.', 404);
    const back = (
      <p>
        <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}`, req)}>
          {`Back to ${payment.endToEndId}`}
        </Link>
      </p>
    );
    let preview;
    try {
      preview = await previewCancellation(deps, { ref: payment.id, companies: ops.companies, company: req.company });
    } catch (error) {
      if (!isSettleError(error)) throw error;
      // Too late (ACSP or later, final, or the bulk's fate unknown): the reason, no form.
      return {
        title: `${payment.endToEndId} cannot be cancelled`,
        body: render(
          <>
            <p>{error.message}</p>
            {back}
          </>,
        ),
        status: 409,
      };
    }
    if (preview.open)
      return {
        title: `Cancellation of ${payment.endToEndId} already asked`,
        body: render(
          <p>
            {`${preview.open.requestedBy} asked for it (request ${preview.open.id}).`}{' '}
            <Link href={href('/console/cancellations', req) + `#cancellation-${encodeURIComponent(preview.open.id)}`}>
              See it on the Cancellations page
            </Link>
            .
          </p>,
        ),
      };
    const wholeBulk = preview.bulkLines.length > 1;
    const bulk = wholeBulk ? await deps.store.payments.listByBulk(preview.lines[0]!.bulkId!) : [];
    return {
      title: `Cancel ${payment.endToEndId}?`,
      body: render(
        <>
          <LinesTable deps={deps} req={req} caption="The payment to cancel" lines={[payment]} />
          {wholeBulk && (
            <>
              <p>
                <strong>The bank cancels whole bulks only.</strong> Cancelling this payment cancels its bulk of{' '}
                {bulk.length} payments at the bank; once the bank confirms, the other {bulk.length - 1} are sent again
                in a new bulk, once.
              </p>
              <LinesTable deps={deps} req={req} caption="Every payment of the bulk the bank cancels" lines={bulk} />
            </>
          )}
          {preview.fourEyes && (
            <p>Four eyes: your request waits on the Cancellations page until another operator confirms it.</p>
          )}
          <DecisionForm
            req={req}
            path={`/console/payments/${encodeURIComponent(payment.id)}/cancel`}
            id={`cancel-${payment.id}`}
            fields={<input type="hidden" name="confirm" value="yes" />}
            button={wholeBulk ? 'Cancel the whole bulk at the bank' : 'Cancel the payment'}
          />
          {back}
        </>,
      ),
    };
  }),
};

/** What the person reads after the use case ran. */
function outcomeText(r: Exclude<CancelResult, { outcome: 'confirm' }>): string {
  switch (r.outcome) {
    case 'awaiting-confirmation':
      return `Asked by ${r.request.requestedBy}: another operator confirms it on the Cancellations page.`;
    case 'at-bank':
      return 'The bank took the cancellation but has not confirmed it yet; the status job finishes it.';
    case 'already':
      return `It was already cancelled (${r.request.outcome ?? '?'}).`;
    case 'withdrawn':
      return "Withdrawn: never sent to the bank; the ERP's status file reports it cancelled.";
    case 'cancelled':
      return `Cancelled at the bank with its whole bulk${r.resent.length ? `; the other ${r.resent.length} payments go again in a new bulk with the next submit` : ''}.`;
  }
}

/** Runs the cancellation the operator confirmed on the preview. */
export const cancelPaymentAction: ConsoleAction = {
  path: '/console/payments/:id/cancel',
  // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
  role: 'viewer',
  async handle(deps: ConsoleDeps, req) {
    const refused = refuseUnlessOperator(req, 'cancel a payment');
    if (refused) return refused;
    const ops = deps.operations;
    if (!ops) return withoutBank();
    const reason = reasonOf(req);
    if ('refused' in reason) return reason.refused;
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem('No such payment', 'The company has no payment with this id.', 404);
    const preview = href(`/console/payments/${encodeURIComponent(payment.id)}/cancel`, req);
    return runDecision(deps, req, `${payment.endToEndId} was not cancelled`, async () => {
      const result = await cancelPayment(
        { store: deps.store, bank: ops.bank(), logger: ops.logger },
        {
          ref: payment.id,
          reason: reason.reason,
          actor: req.origin.actor,
          person: req.user.person,
          origin: auditOrigin(req.origin),
          companies: ops.companies,
          company: req.company,
          yes: req.form.confirm === 'yes',
          channel: 'console',
        },
      );
      // Not confirmed on the preview (a form from elsewhere): show the preview, nothing was done.
      if (result.outcome === 'confirm') return { redirect: preview };
      if (result.outcome === 'awaiting-confirmation')
        return {
          redirect: href('/console/cancellations', req) + `#cancellation-${encodeURIComponent(result.request.id)}`,
        };
      return {
        status: 200,
        title: `Cancellation of ${payment.endToEndId}`,
        body: render(
          <>
            <p>{outcomeText(result)}</p>
            <p>
              <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}`, req)}>
                {`The story of ${payment.endToEndId}`}
              </Link>
            </p>
          </>,
        ),
      };
    });
  },
};
