// Payment: one payment's whole story — its file and line, every state of the file, bulk,
// basket and line with time and source, the bank's ids, the basket (never its SCA link), the
// bookings carrying its end-to-end id and the reconciliation findings about it.
import { sentUnder } from '../../../../jobs/payments/index.js';
import { describeLineState } from '../../../i18n/index.js';
import { Amount, Facts, Link, render, Table } from '../../../html/index.js';
import { releasedFromHoldText } from '../../../domain/controls/release.js';
import type { HeldPayment } from '../../../store/index.js';
import type { ConsolePage } from '../page.js';
import { CancelLink } from './cancel-payment.js';
import { loadPage } from './load-page.js';
import { isOperator } from './operator.js';
import { href, PAYROLL_HIDDEN, problem, visibleLine, when } from './parts.js';

export const paymentPage: ConsolePage = {
  path: '/console/payments/:id',
  load: loadPage(async (deps, req) => {
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem('No such payment', 'The company has no payment with this id.', 404);
    const story = await deps.store.paymentViews.story(payment);
    const findings = await deps.store.consoleViews.findingsAbout(req.company, payment);
    const [hold] = await deps.store.held.find(payment.id, req.company);
    const reasons = payment.tppMessages.flatMap((m) =>
      m.code ? [{ code: m.code, text: m.message ?? undefined }] : [],
    );
    const state = describeLineState(payment.state, reasons);
    const v = visibleLine(deps, req, payment);
    const fileLink = story.file ? (
      <Link href={href(`/console/files/${encodeURIComponent(story.file.id)}`, req)}>{story.file.fileName}</Link>
    ) : (
      payment.fileId
    );
    const basket = story.basket;
    return {
      title: `Payment ${payment.endToEndId}`,
      body: render(
        <>
          <Facts
            caption="The payment"
            rows={[
              ['File and line', [fileLink, `, line ${payment.lineNumber}`]],
              ['State', `${payment.state} — ${state.label}`],
              ...(state.action ? [['What to do', state.action] as const] : []),
              ...(hold ? [['Hold', holdText(hold)] as const] : []),
              ['Creditor', v.creditor],
              ['Creditor IBAN', v.creditorIban],
              ['Amount', v.amount],
              ['Remittance', v.remittance || '–'],
              ['Creditor reference', payment.creditorReference ?? '–'],
              ['Debtor account', payment.debtorIban],
              ['Execution date', payment.requestedExecutionDate],
              ['Bank status', payment.bankStatus ?? '–'],
              ['Bank payment id', story.bulk?.bankPaymentId ?? '–'],
              ['Sent under', sentUnder(story.bulk) ?? '–'],
              ['Bulk', story.bulk ? `${story.bulk.id} (${story.bulk.state})` : '–'],
              [
                'Signing basket',
                basket
                  ? [
                      <Link href={href(`/console/approvals/${encodeURIComponent(basket.id)}`, req)}>{basket.id}</Link>,
                      ` (${basket.state}${basket.bankBasketId ? `, bank id ${basket.bankBasketId}` : ''})`,
                    ]
                  : '–',
              ],
            ]}
          />
          {isOperator(req) && <CancelLink req={req} payment={payment} />}
          <Table
            caption="Every state, oldest first"
            head={['When', 'What', 'From', 'To', 'Cause', 'Source']}
            rows={story.history}
            empty="none"
            cells={(t) => [when(deps, req, t.at), t.entityType, t.from ?? '–', t.to, t.cause, t.source ?? '–']}
          />
          <Table
            caption="Bookings with its end-to-end id"
            head={['Account', 'Booking date', 'Amount', 'Status', 'Bank transaction id']}
            rows={story.bookings}
            empty="none"
            cells={(b) => [
              b.accountIban ?? b.accountId,
              b.bookingDate ?? '–',
              v.hidden ? PAYROLL_HIDDEN : <Amount money={b.amount} />,
              b.status,
              b.bankTransactionId,
            ]}
          />
          <Table
            caption="Reconciliation findings about it"
            head={['Finding', 'Type', 'Subject', 'Decision']}
            rows={findings}
            empty="none"
            cells={(f) => [
              <Link href={href('/console/reconciliation', req, { all: '1' }) + `#finding-${encodeURIComponent(f.id)}`}>
                {f.id}
              </Link>,
              f.type,
              // The subject names the creditor: hidden with the line's creditor.
              v.hidden ? PAYROLL_HIDDEN : f.subject,
              f.decision,
            ]}
          />
        </>,
      ),
    };
  }),
};

/** Whether settle's controls held the payment, and what people decided (docs/controls.md). */
function holdText(hold: HeldPayment): string {
  const rules = hold.rules.join(', ');
  if (hold.decision === 'released')
    return releasedFromHoldText({
      rules: hold.rules,
      releasedBy: [hold.firstRelease?.by, hold.decidedBy ?? 'a person'].filter((b): b is string => b !== undefined),
    });
  if (hold.decision === 'dropped') return `held by ${rules}, dropped by ${hold.decidedBy ?? 'a person'}`;
  if (hold.firstRelease)
    return `held by ${rules}: released once by ${hold.firstRelease.by}, waiting for a second person`;
  return `held by ${rules}: waiting for a person (Held page)`;
}
