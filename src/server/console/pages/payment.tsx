// Payment: one payment's whole story — its file and line, every state of the file, bulk,
// basket and line with time and source, the bank's ids, the basket (never its approval link), the
// bookings carrying its end-to-end id and the reconciliation findings about it.
import { sentUnder } from '../../../../jobs/payments/index.js';
import { Amount, Facts, Link, render, Table } from '../../../html/index.js';
import {
  currentLocale,
  describePaymentState,
  findingSubjectWords,
  historyStateKind,
  format,
  recordedSentence,
  recordedWords,
  t,
} from '../../../i18n/index.js';
import type { HeldPayment } from '../../../store/index.js';
import type { ConsolePage } from '../page.js';
import { CancelLink } from './cancel-payment.js';
import { loadPage } from './load-page.js';
import { isOperator } from './operator.js';
import { codeText, day, href, payrollHidden, problem, ruleText, timeZoneOf, visibleLine, when } from './parts.js';

export const paymentPage: ConsolePage = {
  path: '/console/payments/:id',
  load: loadPage(async (deps, req) => {
    const payment = await deps.store.consoleViews.payment(req.company, req.params.id ?? '');
    if (!payment) return problem(t('payments.notFound.title'), t('payments.notFound.body'), 404);
    const story = await deps.store.paymentViews.story(payment);
    const findings = await deps.store.consoleViews.findingsAbout(req.company, payment);
    const [hold] = await deps.store.held.find(payment.id, req.company);
    const reasons = payment.tppMessages.flatMap((m) =>
      // Settle's own words (a hold, a drop, a cancellation) in the reader's language; the bank's as it gave them.
      m.code ? [{ code: m.code, text: recordedWords(currentLocale(), m) }] : [],
    );
    const state = describePaymentState(payment.state, reasons, currentLocale());
    const v = visibleLine(deps, req, payment);
    const fileLink = story.file ? (
      <Link href={href(`/console/files/${encodeURIComponent(story.file.id)}`, req)}>{story.file.fileName}</Link>
    ) : (
      payment.fileId
    );
    const basket = story.basket;
    return {
      title: t('payments.payment.title', { e2e: payment.endToEndId }),
      body: render(
        <>
          <Facts
            caption={t('payments.payment.caption')}
            rows={[
              [t('payments.payment.fileAndLine'), [fileLink, t('payments.payment.line', { line: payment.lineNumber })]],
              [
                t('payments.payment.state'),
                t('payments.payment.stateText', { state: payment.state, label: state.label }),
              ],
              ...(state.action ? [[t('payments.payment.whatToDo'), state.action] as const] : []),
              ...(hold ? [[t('payments.payment.hold'), holdText(hold)] as const] : []),
              [t('payments.payment.creditor'), v.creditor],
              [t('payments.payment.creditorIban'), v.creditorIban],
              [t('payments.payment.amount'), v.amount],
              [t('payments.payment.remittance'), v.remittance || '–'],
              [t('payments.payment.creditorReference'), payment.creditorReference ?? '–'],
              [t('payments.payment.debtorAccount'), payment.debtorIban],
              [t('payments.payment.executionDate'), day(payment.requestedExecutionDate)],
              [t('payments.payment.bankStatus'), payment.bankStatus ?? '–'],
              [t('payments.payment.bankPaymentId'), story.bulk?.bankPaymentId ?? '–'],
              [t('payments.payment.sentUnder'), sentUnder(story.bulk, currentLocale()) ?? '–'],
              [
                t('payments.payment.bulk'),
                story.bulk
                  ? t('payments.payment.bulkState', { bulk: story.bulk.id, state: codeText('bulk', story.bulk.state) })
                  : '–',
              ],
              [
                t('payments.payment.basket'),
                basket
                  ? [
                      <Link href={href(`/console/approvals/${encodeURIComponent(basket.id)}`, req)}>{basket.id}</Link>,
                      basket.bankBasketId
                        ? t('payments.payment.basketStateBank', {
                            state: codeText('basket', basket.state),
                            bankId: basket.bankBasketId,
                          })
                        : t('payments.payment.basketState', { state: codeText('basket', basket.state) }),
                    ]
                  : '–',
              ],
            ]}
          />
          {isOperator(req) && <CancelLink req={req} payment={payment} />}
          <Table
            caption={t('payments.history.caption')}
            head={(['when', 'what', 'from', 'to', 'cause', 'source'] as const).map((h) => t(`payments.history.${h}`))}
            rows={story.history}
            empty={t('payments.none')}
            cells={(r) => [
              when(deps, req, r.at),
              codeText('entity', r.entityType),
              r.from === undefined ? '–' : codeText(historyStateKind(r.entityType, r.from), r.from),
              codeText(historyStateKind(r.entityType, r.to), r.to),
              // The cause in the reader's language (its English for English readers and old moves).
              recordedSentence(currentLocale(), r.cause, r.said, { timeZone: timeZoneOf(deps, req.company) }),
              r.source === undefined ? '–' : codeText('source', r.source),
            ]}
          />
          <Table
            caption={t('payments.bookings.caption')}
            head={[
              t('payments.bookings.account'),
              t('payments.bookings.bookingDate'),
              t('payments.bookings.amount'),
              t('payments.bookings.status'),
              t('payments.bookings.transactionId'),
            ]}
            rows={story.bookings}
            empty={t('payments.none')}
            cells={(b) => [
              b.accountIban ?? b.accountId,
              b.bookingDate ? day(b.bookingDate) : '–',
              v.hidden ? payrollHidden() : <Amount money={b.amount} />,
              b.status,
              b.bankTransactionId,
            ]}
          />
          <Table
            caption={t('payments.findings.caption')}
            head={[
              t('payments.findings.finding'),
              t('payments.findings.type'),
              t('payments.findings.subject'),
              t('payments.findings.decision'),
            ]}
            rows={findings}
            empty={t('payments.none')}
            cells={(f) => [
              <Link href={href('/console/reconciliation', req, { all: '1' }) + `#finding-${encodeURIComponent(f.id)}`}>
                {f.id}
              </Link>,
              f.type,
              // The subject names the creditor: hidden with the line's creditor.
              v.hidden ? payrollHidden() : findingSubjectWords(currentLocale(), f.subject),
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
  const rules = hold.rules.map(ruleText).join(', ');
  const person = hold.decidedBy ?? t('payments.hold.aPerson');
  if (hold.decision === 'released') {
    const people = [hold.firstRelease?.by, person].filter((b): b is string => b !== undefined);
    return t('payments.hold.released', { rules, people: format.list(people, currentLocale()) });
  }
  if (hold.decision === 'dropped') return t('payments.hold.dropped', { rules, person });
  if (hold.firstRelease) return t('payments.hold.firstRelease', { rules, person: hold.firstRelease.by });
  return t('payments.hold.waiting', { rules });
}
