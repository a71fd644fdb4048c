// Period sign-off (docs/reconciliation.md, "Signing a period off"): finance closes a month or a
// day of a company once no finding about its days needs a person. The closing records the
// balances per account the statements give for the period (the reconciliation report's
// "balances per account", src/domain/reconcile/balances.ts), the totals by finding type and who
// signed; the store refuses it, with the list, while a finding needs a person. The CLI
// (`settle reconcile signoff`) and the console's Reconciliation page both call this.
import { SettleError } from '../../src/domain/errors.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import { accountBalances, parseSignoffPeriod } from '../../src/domain/reconcile/index.js';
import { dateFigure } from '../../src/domain/recorded-text.js';
import type { PeriodBalance, Store, StoredSignoff } from '../../src/store/index.js';
import { bookedTransactions, sentPayments, statementPeriods } from './inputs.js';

export interface SignoffRequest {
  company: string;
  /** `YYYY-MM` or `YYYY-MM-DD`. */
  period: string;
  actor: string;
  /** The person behind the login (src/domain/person.ts). */
  person: string;
  origin: string;
  note?: string;
  /** Today in the company's time zone: a period is signed off once its last day is over. */
  today: LocalDate;
}

export async function signOffPeriod(store: Store, request: SignoffRequest): Promise<StoredSignoff> {
  const { period, from, to } = parseSignoffPeriod(request.period);
  // Balances and findings of a day still running would change after the signature: finance closes
  // what is over, and the books are reopened only by a finding that comes later.
  if (to >= request.today)
    throw new SettleError(
      'ERR_PERIOD_NOT_ENDED',
      `${period} has not ended yet (today is ${request.today} in the company's time zone): it can be signed off from ${addDays(to, 1)}`,
      { values: { period, today: dateFigure(request.today), from: dateFigure(addDays(to, 1)) } },
    );
  return store.signoffs.sign({
    company: request.company,
    period,
    from,
    to,
    actor: request.actor,
    person: request.person,
    origin: request.origin,
    ...(request.note ? { note: request.note } : {}),
    balances: await periodBalances(store, request.company, { from, to }),
  });
}

/** Per account and currency: opening, sent, booked out and in, closing, the bank's closing, difference. */
export async function periodBalances(
  store: Store,
  company: string,
  period: Parameters<typeof accountBalances>[0],
): Promise<PeriodBalance[]> {
  const balances = accountBalances(
    period,
    await sentPayments(store, company, period),
    await bookedTransactions(store, company, period),
    await statementPeriods(store, company, period),
  );
  return balances.map((b) => ({
    accountIban: b.accountIban,
    currency: b.currency,
    sent: b.sent.minor,
    bookedOut: b.bookedOut.minor,
    bookedIn: b.bookedIn.minor,
    ...(b.opening ? { opening: b.opening.minor } : {}),
    ...(b.closing ? { closing: b.closing.minor } : {}),
    ...(b.reported ? { reported: b.reported.minor } : {}),
    ...(b.difference ? { difference: b.difference.minor } : {}),
  }));
}
