// Reads what reconciliation needs for one company from the database: the payments settle
// sent (with their bulk's batch-booking choice), the booked transactions of the company's
// accounts, the statement days with both balances, and the signing baskets still waiting.
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import type {
  BookedTransaction,
  PaymentOutcome,
  PendingApproval,
  SentPayment,
  StatementPeriod,
} from '../../src/domain/reconcile/index.js';
import { BANK_STATUSES, LIVE_BASKETS, type PaymentState } from '../../src/domain/states.js';
import type { Store, StoredBulk, StoredPayment } from '../../src/store/index.js';

const SENT_STATES: readonly PaymentState[] = ['sent', 'unknown', ...BANK_STATUSES];

export interface Period {
  from: LocalDate;
  to: LocalDate;
}

/** The period widened by `days` on both sides. */
export function widened(period: Period, days: number): Period {
  return { from: addDays(period.from, -days), to: addDays(period.to, days) };
}

export async function sentPayments(store: Store, company: string, period: Period): Promise<SentPayment[]> {
  const bulks = new Map<string, StoredBulk | undefined>();
  const bulkOf = async (id: string) => {
    if (!bulks.has(id)) bulks.set(id, await store.bulks.get(id));
    return bulks.get(id);
  };
  const out: SentPayment[] = [];
  // The period's lines only: the table holds years of them (docs/performance.md, history rows).
  for (const p of await store.payments.listInBulksExecutedBetween(company, SENT_STATES, period)) {
    if (!p.bulkId) continue;
    const bulk = await bulkOf(p.bulkId);
    out.push({
      id: p.id,
      company,
      endToEndId: p.endToEndId,
      amount: p.amount,
      debtorIban: p.debtorIban,
      creditorIban: p.creditorIban,
      creditorName: p.creditorName,
      requestedExecutionDate: p.requestedExecutionDate,
      bulkId: p.bulkId,
      batchBooking: bulk?.batchBooking ?? false,
      outcome: outcomeOf(p),
      ...(p.bankStatus ? { bankStatus: p.bankStatus } : {}),
      ...(p.state === 'RJCT' ? { rejectionReason: reasonOf(p) } : {}),
    });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

function outcomeOf(p: StoredPayment): PaymentOutcome {
  if (p.state === 'RJCT') return 'rejected';
  if (p.state === 'CANC') return 'cancelled';
  if (p.state === 'unknown') return 'unknown';
  return 'sent';
}

function reasonOf(p: StoredPayment): string {
  const m = p.tppMessages[0];
  return m ? [m.code, m.message].filter(Boolean).join(' ') : 'rejected by the bank (no reason given)';
}

/** Booked transactions in the period (the caller widens it by the date window so early and late bookings still match). */
export async function bookedTransactions(store: Store, company: string, period: Period): Promise<BookedTransaction[]> {
  const rows = await store.statements.listBookedOfCompany(company, period.from, period.to);
  return rows.flatMap((t) =>
    t.accountIban && t.bookingDate
      ? [
          {
            id: t.id,
            company,
            accountIban: t.accountIban,
            amount: t.amount,
            bookingDate: t.bookingDate,
            ...(t.valueDate ? { valueDate: t.valueDate } : {}),
            ...(t.endToEndId ? { endToEndId: t.endToEndId } : {}),
            ...(t.counterpartyIban ? { counterpartyIban: t.counterpartyIban } : {}),
            ...(t.counterpartyName ? { counterpartyName: t.counterpartyName } : {}),
            ...(t.remittance ? { remittance: t.remittance } : {}),
            ...(t.creditorReference ? { creditorReference: t.creditorReference } : {}),
          },
        ]
      : [],
  );
}

export async function statementPeriods(store: Store, company: string, period: Period): Promise<StatementPeriod[]> {
  const out: StatementPeriod[] = [];
  const accounts = (await store.statements.listAccounts(company)).flatMap((a) =>
    a.iban === undefined || a.iban === '' ? [] : [{ id: a.id, iban: a.iban }],
  );
  // Every account's days in one read.
  const days = await store.statementDays.listOf(
    accounts.map((a) => a.id),
    period.from,
    period.to,
  );
  for (const account of accounts) {
    for (const day of days.get(account.id) ?? []) {
      if (day.openingMinor === undefined || day.closingMinor === undefined) continue;
      out.push({
        company,
        accountIban: account.iban,
        from: day.day,
        to: day.day,
        openingBalance: { minor: day.openingMinor, currency: day.currency },
        closingBalance: { minor: day.closingMinor, currency: day.currency },
      });
    }
  }
  return out;
}

export async function pendingApprovals(store: Store, company: string): Promise<PendingApproval[]> {
  const out: PendingApproval[] = [];
  for (const basket of await store.baskets.listInStates(company, LIVE_BASKETS)) {
    const bulkIds = await store.baskets.bulkIds(basket.id);
    const totals = new Map<string, bigint>();
    for (const id of bulkIds) {
      const bulk = await store.bulks.get(id);
      for (const [currency, minor] of Object.entries(bulk?.totals ?? {}))
        totals.set(currency, (totals.get(currency) ?? 0n) + BigInt(minor));
    }
    out.push({
      company,
      basketId: basket.bankBasketId ?? basket.id,
      bulkIds,
      totals: [...totals].map(([currency, minor]) => ({ currency, minor })),
      ...(basket.approvalLinkExpiresAt ? { linkExpiresAt: basket.approvalLinkExpiresAt } : {}),
    });
  }
  return out;
}
