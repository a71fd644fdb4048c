// The records reconciliation works on. They are plain data the reconcile job reads from the
// database; nothing here knows about SQL or files, so the rules can be tested (and benchmarked)
// on in-memory arrays.
import type { LocalDate } from '../local-date.js';
import type { Money } from '../money.js';

/**
 * What settle knows about the outcome of a payment at the bank:
 * - `sent`: the bank accepted it (any status from RCVD to ACSC); a booking is expected.
 * - `rejected` / `cancelled`: the bank refused it or it was cancelled; no booking is expected.
 * - `unknown`: a send whose response never arrived (architecture.md §2.3); never re-sent blind.
 */
export type PaymentOutcome = 'sent' | 'rejected' | 'cancelled' | 'unknown';

/** One payment settle sent (or tried to send). */
export interface SentPayment {
  /** settle's own id of the line (stable across runs). */
  id: string;
  company: string;
  endToEndId: string;
  /** Positive: the amount the creditor should receive. */
  amount: Money;
  debtorIban: string;
  creditorIban: string;
  creditorName?: string;
  requestedExecutionDate: LocalDate;
  /** The bulk (one debtor account, one execution date) the line was sent in. */
  bulkId: string;
  /** Batch booking asked for on the bulk: the bank may book the bulk as one lump-sum debit. */
  batchBooking: boolean;
  outcome: PaymentOutcome;
  /** The bank's last transaction status (e.g. "ACSC", "RJCT"), shown in reports. */
  bankStatus?: string;
  /** Bank or validation reason of a rejection (e.g. "AC01 incorrect account number"). */
  rejectionReason?: string;
  /** For a rejected line: the id of the payment that re-sent it, if any. */
  resentAs?: string;
}

/**
 * One booked transaction on a company account, as fetched from the bank. Amounts are signed
 * like the statement model (src/domain/statement.ts): negative = debit (money out), positive =
 * credit. Debits are matched to the payments settle sent, credits to the open receivables.
 */
export interface BookedTransaction {
  /** settle's id of the stored transaction (or the bank's transactionId). */
  id: string;
  company: string;
  accountIban: string;
  amount: Money;
  bookingDate: LocalDate;
  valueDate?: LocalDate;
  /** End-to-end id as the bank reports it; absent or "NOTPROVIDED" when the bank has none. */
  endToEndId?: string;
  counterpartyIban?: string;
  counterpartyName?: string;
  remittance?: string;
  /** The structured creditor reference (KID, RF) the bank gave; else one is read from the remittance text. */
  creditorReference?: { reference: string; type?: string };
}

/**
 * A statement period of one account (one fetched statement or day of balances): continuity
 * means each period starts the day after the previous one ended, with the opening balance equal
 * to the previous closing balance.
 */
export interface StatementPeriod {
  company: string;
  accountIban: string;
  from: LocalDate;
  to: LocalDate;
  openingBalance: Money;
  closingBalance: Money;
}

/** A signing basket waiting for approvers (architecture.md §5: the approval link expires within 7 days). */
export interface PendingApproval {
  company: string;
  basketId: string;
  bulkIds: readonly string[];
  /** Totals of the payments waiting in the basket, one per currency. */
  totals: readonly Money[];
  linkIssuedAt?: Date;
  /** When the approval link stops working; undefined when no link was issued yet. */
  linkExpiresAt?: Date;
}

/** A consent (or data subscription) the company gave settle at a bank. */
export interface ConsentState {
  company: string;
  consentId: string;
  bank: string;
  validUntil: LocalDate;
}
