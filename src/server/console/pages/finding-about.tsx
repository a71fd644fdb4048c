// What a reconciliation finding is about, as a person reads it on Reconciliation and Today: the
// payment (ERP reference, creditor, account, amount) or the booking (counterparty, date, amount)
// it names by settle's id, then its sentence; payroll hidden without the role, the sentence too.
import type { Money } from '../../../domain/money.js';
import type { LocalDate } from '../../../domain/local-date.js';
import { Amount, Link, Sentence, type Child } from '../../../html/index.js';
import { currentLocale, findingSubjectWords, format, recordedSentence, t } from '../../../i18n/index.js';
import type { FindingFacts, StoredFinding } from '../../../store/index.js';
import type { ConsoleDeps, PageRequest } from '../page.js';
import { href, mayShow, payrollHidden, timeZoneOf, visibleLine } from './parts.js';

/**
 * What a finding is about, as a person reads it: the ERP reference, the counterparty and the
 * amount (payroll hidden without the role), then the finding's sentence; the ids one click away.
 */
export function FindingAbout(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  finding: StoredFinding;
  facts: FindingFacts;
}) {
  const { deps, req, finding: f, facts } = props;
  const payment = facts.payments.get(f.id);
  const booking = facts.bookings.get(f.id);
  let fact: Child = findingSubjectWords(currentLocale(), f.subject);
  if (payment) {
    const v = visibleLine(deps, req, payment);
    fact = (
      <Sentence
        k="reconciliation.about.payment"
        values={{ reference: payment.endToEndId, creditor: v.creditor, account: v.creditorIban }}
        tags={{
          link: (text) => <Link href={href(`/console/payments/${encodeURIComponent(payment.id)}`, req)}>{text}</Link>,
          amount: () => <>{v.amount}</>,
        }}
      />
    );
  } else if (booking) {
    const hidden = isPayrollBooking(deps, req, booking.accountIban);
    fact = hidden ? (
      t('reconciliation.about.hiddenBooking', { account: booking.accountIban ?? '–', hidden: payrollHidden() })
    ) : (
      <Sentence
        k="reconciliation.about.booking"
        values={{
          date: booking.bookingDate ? day(booking.bookingDate) : '',
          counterparty: booking.counterparty ?? t('reconciliation.about.noCounterparty'),
          iban: booking.counterpartyIban ?? 'none',
        }}
        tags={{ amount: () => <Amount money={booking.amount} /> }}
      />
    );
  }
  // The finding's sentence names the amount too: hidden with the line's.
  const hidden =
    (payment && visibleLine(deps, req, payment).hidden) ||
    (booking && isPayrollBooking(deps, req, booking.accountIban));
  return (
    <>
      {fact}
      <br />
      {hidden
        ? payrollHidden()
        : recordedSentence(currentLocale(), f.summary, f.summaryText, { timeZone: timeZoneOf(deps, f.company) })}
    </>
  );
}

/** A day as the person's language writes it; English keeps the ISO date the console has always shown. */
export function day(d: string): string {
  const locale = currentLocale();
  return locale === 'en' ? d : format.date(d as LocalDate, locale);
}

/** Whether a booking on this account is hidden from the person: the payroll rule (src/domain/payroll.ts). */
export function isPayrollBooking(deps: ConsoleDeps, req: PageRequest, accountIban: string | undefined): boolean {
  return !mayShow(deps, req, { account: accountIban });
}

/** The money the page's open findings are about, per currency, as the person may see it. */
export function atStake(deps: ConsoleDeps, req: PageRequest, rows: readonly StoredFinding[], facts: FindingFacts) {
  const totals: Record<string, bigint> = {};
  const add = (m: Money) => (totals[m.currency] = (totals[m.currency] ?? 0n) + (m.minor < 0n ? -m.minor : m.minor));
  for (const f of rows) {
    if (f.decision !== 'open') continue;
    const payment = facts.payments.get(f.id);
    const booking = facts.bookings.get(f.id);
    if (payment) {
      if (!visibleLine(deps, req, payment).hidden) add(payment.amount);
    } else if (booking) {
      if (!isPayrollBooking(deps, req, booking.accountIban)) add(booking.amount);
    }
    // Else the money the run recorded with the finding (a basket, a statement break), payroll accounts hidden.
    else if (f.amount && !isPayrollBooking(deps, req, f.accountIban)) add(f.amount);
  }
  return totals;
}
