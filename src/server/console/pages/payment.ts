// Payment: one payment's whole story — its file and line, every state of the file, bulk,
// basket and line with time and source, the bank's ids, the basket (never its SCA link), the
// bookings carrying its end-to-end id and the reconciliation findings about it.
import type { ConsolePage } from '../page.js';
import { amount, esc, facts, href, link, PAYROLL_HIDDEN, problem, table, visibleLine, when } from './html.js';
import { loadPage } from './load-page.js';
import { cancelLink } from './cancel-payment.js';
import { isOperator } from './operator.js';
import { sentUnder } from '../../../../jobs/payments/payment-story.js';

export const paymentPage: ConsolePage = {
  path: '/console/payments/:id',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem('No such payment', 'The company has no payment with this id.', 404);
    const story = await deps.store.paymentViews.story(payment);
    const findings = await deps.store.consoleViews.findingsAbout(req.company, payment.endToEndId);
    const v = visibleLine(deps, req, payment);
    const fileLink = story.file
      ? link(href(`/console/files/${encodeURIComponent(story.file.id)}`, req), story.file.fileName)
      : esc(payment.fileId);
    return {
      title: `Payment ${payment.endToEndId}`,
      body: [
        facts('The payment', [
          ['File and line', `${fileLink}, line ${esc(String(payment.lineNumber))}`],
          ['State', esc(payment.state)],
          ['Creditor', v.creditor],
          ['Creditor IBAN', v.creditorIban],
          ['Amount', v.amount],
          ['Remittance', v.remittance || '–'],
          ['Creditor reference', esc(payment.creditorReference ?? '–')],
          ['Debtor account', esc(payment.debtorIban)],
          ['Execution date', esc(payment.requestedExecutionDate)],
          ['Bank status', esc(payment.bankStatus ?? '–')],
          ['Bank payment id', esc(story.bulk?.bankPaymentId ?? '–')],
          ['Sent under', esc(sentUnder(story.bulk) ?? '–')],
          ['Bulk', story.bulk ? esc(`${story.bulk.id} (${story.bulk.state})`) : '–'],
          [
            'Signing basket',
            story.basket
              ? `${link(href(`/console/approvals/${encodeURIComponent(story.basket.id)}`, req), story.basket.id)} ${esc(`(${story.basket.state}${story.basket.bankBasketId ? `, bank id ${story.basket.bankBasketId}` : ''})`)}`
              : '–',
          ],
        ]),
        isOperator(req) ? cancelLink(req, payment) : '',
        table(
          'Every state, oldest first',
          ['When', 'What', 'From', 'To', 'Cause', 'Source'],
          story.history.map((t) => [
            when(deps, req, t.at),
            esc(t.entityType),
            esc(t.from ?? '–'),
            esc(t.to),
            esc(t.cause),
            esc(t.source ?? '–'),
          ]),
        ),
        table(
          'Bookings with its end-to-end id',
          ['Account', 'Booking date', 'Amount', 'Status', 'Bank transaction id'],
          story.bookings.map((b) => [
            esc(b.accountIban ?? b.accountId),
            esc(b.bookingDate ?? '–'),
            v.amount === PAYROLL_HIDDEN ? PAYROLL_HIDDEN : amount(b.amount.minor, b.amount.currency),
            esc(b.status),
            esc(b.bankTransactionId),
          ]),
        ),
        table(
          'Reconciliation findings about it',
          ['Finding', 'Type', 'Subject', 'Decision'],
          findings.map((f) => [
            link(href('/console/reconciliation', req, { all: '1' }) + `#finding-${encodeURIComponent(f.id)}`, f.id),
            esc(f.type),
            // The subject names the creditor: hidden with the line's creditor.
            v.creditor === PAYROLL_HIDDEN ? PAYROLL_HIDDEN : esc(f.subject),
            esc(f.decision),
          ]),
        ),
      ].join('\n'),
    };
  }),
};
