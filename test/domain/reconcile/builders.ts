// Small builders for reconciliation inputs: defaults for every field, overrides per test.
import { toLocalDate } from '../../../src/domain/local-date.js';
import type { Money } from '../../../src/domain/money.js';
import type { BookedTransaction, SentPayment } from '../../../src/domain/reconcile/index.js';

export const DEBTOR = 'NO9386011117947';
export const CREDITOR = 'NO8330001234567';
export const OTHER_CREDITOR = 'DE89370400440532013000';

export const nok = (minor: bigint): Money => ({ minor, currency: 'NOK' });
export const d = toLocalDate;

export function payment(id: string, overrides: Partial<SentPayment> = {}): SentPayment {
  return {
    id,
    company: 'acme',
    endToEndId: `E2E-${id}`,
    amount: nok(10_000n),
    debtorIban: DEBTOR,
    creditorIban: CREDITOR,
    creditorName: 'Supplier AS',
    requestedExecutionDate: d('2026-03-10'),
    bulkId: 'B1',
    batchBooking: false,
    outcome: 'sent',
    ...overrides,
  };
}

/** A booked debit: `minor` is the positive amount paid; the transaction stores it negative. */
export function debit(id: string, minor: bigint, overrides: Partial<BookedTransaction> = {}): BookedTransaction {
  return {
    id,
    company: 'acme',
    accountIban: DEBTOR,
    amount: nok(-minor),
    bookingDate: d('2026-03-10'),
    ...overrides,
  };
}
