// Cancel a waiting payment from its page (docs/cancellation.md). The preview comes first and
// changes nothing (jobs/cancel/review.ts): the line, and when its bulk is already at the
// bank every line of that bulk, since the bank cancels whole bulks only; a payment the bank
// already accepted (ACSP or later) gets the reason instead of a form. The operator then confirms
// with a reason, and the same use case as `settle payments cancel` (jobs/cancel/cancel.ts)
// carries it out, or, where four eyes are configured, stores the request for a second operator
// (the Cancellations page).
import { previewCancellation, cancelPayment, type CancelResult } from '../../../../jobs/cancel/index.js';
import { isSettleError } from '../../../domain/errors.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Sentence, Table } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import type { StoredPayment } from '../../../store/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, reasonOf, refuseUnlessOperator, runDecision, withoutBank } from './operator.js';
import { day, href, problem, RefusalWords, visibleLine } from './parts.js';

/** Payments with creditor and amount as the person may see them (payroll hidden without the role). */
function LinesTable(props: { deps: ConsoleDeps; req: PageRequest; caption: string; lines: readonly StoredPayment[] }) {
  const { deps, req } = props;
  return (
    <Table
      caption={props.caption}
      head={[
        t('payments.column.e2e'),
        t('payments.payment.debtorAccount'),
        t('payments.column.creditor'),
        t('payments.column.creditorIban'),
        t('payments.column.amount'),
        t('payments.column.executionDate'),
      ]}
      rows={props.lines}
      empty={t('payments.none')}
      cells={(p) => {
        const v = visibleLine(deps, req, p);
        return [
          <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
          p.debtorIban,
          v.creditor,
          v.creditorIban,
          v.amount,
          day(p.requestedExecutionDate),
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
      <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}/cancel`, req)}>
        {t('cancellations.cancelLink')}
      </Link>
    </p>
  );
}

export const cancelPreviewPage: ConsolePage = {
  path: '/console/payments/:id/cancel',
  load: loadPage(async (deps, req) => {
    const ops = deps.operations;
    if (!ops) return withoutBank();
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem(t('payments.notFound.title'), t('payments.notFound.body'), 404);
    const back = (
      <p>
        <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}`, req)}>
          {t('cancellations.back', { e2e: payment.endToEndId })}
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
        title: t('cancellations.tooLate.title', { e2e: payment.endToEndId }),
        body: render(
          <>
            <RefusalWords error={error} />
            {back}
          </>,
        ),
        status: 409,
      };
    }
    const open = preview.open;
    if (open)
      return {
        title: t('cancellations.alreadyAsked.title', { e2e: payment.endToEndId }),
        body: render(
          <p>
            <Sentence
              k="cancellations.alreadyAsked.body"
              values={{ person: open.requestedBy, id: open.id }}
              tags={{
                see: (text) => (
                  <Link href={href('/console/cancellations', req) + `#cancellation-${encodeURIComponent(open.id)}`}>
                    {text}
                  </Link>
                ),
              }}
            />
          </p>,
        ),
      };
    const wholeBulk = preview.bulkLines.length > 1;
    const bulk = wholeBulk ? await deps.store.payments.listByBulk(preview.lines[0]!.bulkId!) : [];
    return {
      title: t('cancellations.preview.title', { e2e: payment.endToEndId }),
      body: render(
        <>
          <LinesTable deps={deps} req={req} caption={t('cancellations.preview.payment')} lines={[payment]} />
          {wholeBulk && (
            <>
              <p>
                <Sentence
                  k="cancellations.preview.wholeBulk"
                  values={{ count: bulk.length, others: bulk.length - 1 }}
                  tags={{ b: (text) => <strong>{text}</strong> }}
                />
              </p>
              <LinesTable deps={deps} req={req} caption={t('cancellations.preview.bulk')} lines={bulk} />
            </>
          )}
          {preview.fourEyes && <p>{t('cancellations.preview.fourEyes')}</p>}
          <DecisionForm
            req={req}
            path={`/console/payments/${encodeURIComponent(payment.id)}/cancel`}
            id={`cancel-${payment.id}`}
            fields={<input type="hidden" name="confirm" value="yes" />}
            button={wholeBulk ? t('cancellations.preview.cancelBulk') : t('cancellations.preview.cancelPayment')}
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
      return t('cancellations.outcome.awaiting', { person: r.request.requestedBy });
    case 'at-bank':
      return t('cancellations.atBank');
    case 'already':
      return t('cancellations.outcome.already', { outcome: r.request.outcome ?? '?' });
    case 'withdrawn':
      return t('cancellations.outcome.withdrawn');
    case 'cancelled':
      return t('cancellations.outcome.cancelled', { resent: r.resent.length });
  }
}

/** Runs the cancellation the operator confirmed on the preview. */
export const cancelPaymentAction: ConsoleAction = {
  path: '/console/payments/:id/cancel',
  // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
  async handle(deps: ConsoleDeps, req) {
    const refused = refuseUnlessOperator(req, 'cancelPayment');
    if (refused) return refused;
    const ops = deps.operations;
    if (!ops) return withoutBank();
    const reason = reasonOf(req);
    if ('refused' in reason) return reason.refused;
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem(t('payments.notFound.title'), t('payments.notFound.body'), 404);
    const preview = href(`/console/payments/${encodeURIComponent(payment.id)}/cancel`, req);
    return runDecision(deps, req, t('cancellations.notCancelled', { e2e: payment.endToEndId }), async () => {
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
        title: t('cancellations.outcome.title', { e2e: payment.endToEndId }),
        body: render(
          <>
            <p>{outcomeText(result)}</p>
            <p>
              <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}`, req)}>
                {t('cancellations.story', { e2e: payment.endToEndId })}
              </Link>
            </p>
          </>,
        ),
      };
    });
  },
};
