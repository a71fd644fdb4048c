// The stable set of finding types a reconciliation report can hold. Each has a severity, a
// `needsPerson` flag (the reconcile job exits 1 when any finding needs a person) and the action
// finance should take; docs/reconciliation.md describes the same list, in the same order, which
// is also the order of the report's tables.
import type { LocalDate } from '../local-date.js';
import type { Money } from '../money.js';
import type { RecordedText } from '../recorded-text.js';
import type { MatchRule } from './config.js';

/** The rules that match credits to receivables (receivables.ts); named here so findings can carry them. */
export type CreditRuleName = 'creditor-reference' | 'amount-customer-date';

/**
 * Why a finding is an exception, typed so finance can sort and count them:
 * - `over_amount` / `under_amount`: more or less was booked than expected (`under_amount` of a
 *   receivable is provisional: more instalments may come);
 * - `data_mismatch`: a match whose evidence is too weak to confirm itself;
 * - `missing_after_deadline`: not booked after the bank's deadline.
 */
export type ExceptionReason = 'over_amount' | 'under_amount' | 'data_mismatch' | 'missing_after_deadline';

export type FindingSeverity = 'info' | 'warning' | 'error';

export interface FindingTypeInfo {
  readonly severity: FindingSeverity;
  readonly needsPerson: boolean;
  /** Heading of the report table. */
  readonly title: string;
  /** What finance should do about such a finding. */
  readonly action: string;
}

export const FINDING_TYPES = {
  not_booked: {
    severity: 'error',
    needsPerson: true,
    title: 'Sent but not booked',
    action:
      'Ask the bank why the payment was not executed; do not send it again until the bank confirms it will not be.',
  },
  amount_difference: {
    severity: 'error',
    needsPerson: true,
    title: 'Booked with a different amount',
    action: 'Compare with the bank statement (fees, FX conversion) and correct the ledger or claim the difference.',
  },
  booked_despite_rejection: {
    severity: 'error',
    needsPerson: true,
    title: 'Booked although rejected or cancelled',
    action: 'The money left the account: make sure the payment is not sent again and cancel any re-send.',
  },
  unknown_outcome: {
    severity: 'error',
    needsPerson: true,
    title: 'Outcome unknown',
    action: 'Check in the bank portal whether the payment exists; settle never re-sends it on its own.',
  },
  rejected: {
    severity: 'error',
    needsPerson: true,
    title: 'Rejected and not sent again',
    action: 'Fix the cause (often the creditor account) in the ERP and send a corrected payment.',
  },
  unexpected_debit: {
    severity: 'warning',
    needsPerson: true,
    title: 'Debits that did not come from settle',
    action: 'Identify the debit (fee, direct debit, manual payment in the bank portal) and book it.',
  },
  match_proposed: {
    severity: 'warning',
    needsPerson: true,
    title: 'Proposed matches to confirm or reject',
    action:
      'Compare the evidence; confirm the match (settle findings confirm ID --reason …) or reject it (settle findings reject ID --reason …).',
  },
  credit_over: {
    severity: 'warning',
    needsPerson: true,
    title: 'Incoming payments larger than the receivable',
    action: 'Refund the customer or keep the amount as a credit on their account, and book it.',
  },
  unmatched_credit: {
    severity: 'warning',
    needsPerson: true,
    title: 'Incoming payments matching no open receivable',
    action: 'Find the invoice (reference, payer, amount) and book the payment against it, or refund it.',
  },
  statement_gap: {
    severity: 'error',
    needsPerson: true,
    title: 'Statement continuity gaps',
    action: 'Fetch the missing statements again; if the balances still do not chain, ask the bank.',
  },
  approval_link_expired: {
    severity: 'error',
    needsPerson: true,
    title: 'Approval links expired',
    action: 'Have a new approval link issued (settle run approve) and approve the payments.',
  },
  approval_waiting: {
    severity: 'warning',
    needsPerson: true,
    title: 'Approvals waiting',
    action: 'Approvers must open the link before it expires; the payments are not executed until then.',
  },
  consent_expired: {
    severity: 'error',
    needsPerson: true,
    title: 'Bank consents expired',
    action: 'Renew the consent with the bank (settle consents); settle cannot send or fetch until then.',
  },
  consent_expiring: {
    severity: 'warning',
    needsPerson: true,
    title: 'Bank consents about to expire',
    action: 'Renew the consent before the date shown.',
  },
  date_difference: {
    severity: 'warning',
    needsPerson: false,
    title: 'Booked outside the date window',
    action: 'No action unless the delay matters for the creditor; the payment is matched.',
  },
  credit_partial: {
    severity: 'info',
    needsPerson: false,
    title: 'Receivables partly paid',
    action: 'None yet: the rest stays open; remind the customer if it is not paid by the due date.',
  },
  awaiting_booking: {
    severity: 'info',
    needsPerson: false,
    title: 'Sent, booking not yet due',
    action: 'None yet; it becomes "not booked" if still missing after the deadline shown.',
  },
  rejected_resent: {
    severity: 'info',
    needsPerson: false,
    title: 'Rejected and sent again',
    action: 'None; follow the re-sent payment shown in the reference column.',
  },
  matched: {
    severity: 'info',
    needsPerson: false,
    title: 'Matched',
    action: 'None.',
  },
  credit_matched: {
    severity: 'info',
    needsPerson: false,
    title: 'Incoming payments matched to receivables',
    action: 'None; book the payment against the invoice shown.',
  },
} as const satisfies Record<string, FindingTypeInfo>;

export type FindingType = keyof typeof FINDING_TYPES;

/** Report order: the types that need a person first. */
export const FINDING_TYPE_ORDER = Object.keys(FINDING_TYPES) as readonly FindingType[];

export interface Finding {
  readonly type: FindingType;
  readonly severity: FindingSeverity;
  readonly needsPerson: boolean;
  readonly company: string;
  readonly accountIban?: string;
  /** settle ids of the payments concerned (several for a batch-booked bulk). */
  readonly paymentIds: readonly string[];
  readonly endToEndId?: string;
  readonly bulkId?: string;
  readonly transactionId?: string;
  /** The matching rule that made the match. */
  readonly rule?: MatchRule | CreditRuleName;
  /** The amount the finding is about, counted in the report totals: the sent amount, a booked debit (positive), a basket total or a closing balance. */
  readonly amount?: Money;
  /** The booked debit as a positive amount. */
  readonly bookedAmount?: Money;
  /** Booked minus sent. */
  readonly amountDifference?: Money;
  readonly executionDate?: LocalDate;
  readonly bookingDate?: LocalDate;
  /** Booking date minus execution date, in calendar days. */
  readonly dateDifferenceDays?: number;
  /** Creditor (or counterparty) name and account. */
  readonly counterparty?: string;
  /** A related identifier: the re-sent payment, basket, consent or bank status. */
  readonly reference?: string;
  /** A deadline or expiry: the booking deadline, link expiry (ISO instant) or consent end. */
  readonly due?: string;
  /** The ERP's invoice number of the receivable an incoming payment was matched to. */
  readonly invoice?: string;
  /** The structured creditor reference of a credit, as "KID 0012345678" or "RF RF18…". */
  readonly creditorReference?: string;
  /** The booking's free remittance text. */
  readonly remittance?: string;
  /** What agreed and what differed in a match, in one line. */
  readonly evidence?: string;
  /** The match's confidence, 0–100, computed from the evidence. */
  readonly score?: number;
  readonly exception?: ExceptionReason;
  /** One plain sentence: what happened and why it is reported. */
  readonly message: string;
  /**
   * The same sentence as recorded text (src/domain/recorded-text.ts): its catalogue key and
   * values, so a reader gets it in their language; `message` stays the English, byte for byte.
   */
  readonly said?: RecordedText;
  /** The finding's stable id (identity of its fact), given to findings a person may decide about. */
  readonly id?: string;
  /** Set when a person acknowledged this finding with the facts it has now: it needs no person. */
  readonly acknowledged?: Acknowledgement;
}

export interface Acknowledgement {
  /** `confirmed`: a person confirmed a proposed match. */
  readonly kind: 'acknowledged' | 'confirmed';
  readonly by: string;
  readonly at: Date;
  readonly reason?: string;
}

export type FindingFields = Omit<Finding, 'type' | 'severity' | 'needsPerson' | 'id' | 'acknowledged'>;

/**
 * Builds a finding of a type, with the type's severity and flag. Every finding gets every key in
 * the same order (absent ones undefined) so they all share one object shape: with a million
 * findings that keeps property access monomorphic and the report renderers fast.
 */
export function findingOf(type: FindingType, f: FindingFields, needsPerson?: boolean): Finding {
  const info = FINDING_TYPES[type];
  return {
    type,
    severity: info.severity,
    needsPerson: needsPerson ?? info.needsPerson,
    company: f.company,
    accountIban: f.accountIban,
    paymentIds: f.paymentIds,
    endToEndId: f.endToEndId,
    bulkId: f.bulkId,
    transactionId: f.transactionId,
    rule: f.rule,
    amount: f.amount,
    bookedAmount: f.bookedAmount,
    amountDifference: f.amountDifference,
    executionDate: f.executionDate,
    bookingDate: f.bookingDate,
    dateDifferenceDays: f.dateDifferenceDays,
    counterparty: f.counterparty,
    reference: f.reference,
    due: f.due,
    invoice: f.invoice,
    creditorReference: f.creditorReference,
    remittance: f.remittance,
    evidence: f.evidence,
    score: f.score,
    exception: f.exception,
    message: f.message,
    said: f.said,
    id: undefined,
    acknowledged: undefined,
  };
}
