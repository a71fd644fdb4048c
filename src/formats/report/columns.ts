// The reconciliation report's columns: for each finding type, which facts of a finding it shows
// and how (text, an id, a number, a date, an IBAN, a party, a note), and the words for ISO 20022
// status codes and exception reasons. The HTML report (html.tsx) lays them out.
import { displayMoney } from '../../domain/display.js';
import type { Money } from '../../domain/money.js';
import type { Finding, FindingType } from '../../domain/reconcile/findings.js';

export interface Column {
  head: string;
  /** id: settle's or the bank's internal ids, shown last and small; iban and party keep account numbers whole. */
  kind: 'text' | 'id' | 'num' | 'date' | 'iban' | 'party' | 'note';
  cell: (f: Finding) => string | undefined;
}

export const money = (m: Money | undefined): string | undefined => (m ? displayMoney(m) : undefined);

/** ISO 20022 transaction status codes in words, with the code kept beside them. */
const STATUS_WORDS: Record<string, string> = {
  RCVD: 'Received',
  PDNG: 'Pending',
  ACTC: 'Accepted (technical)',
  ACCP: 'Accepted',
  ACFC: 'Accepted, funds checked',
  ACWC: 'Accepted with change',
  ACSP: 'Accepted, settlement in progress',
  ACSC: 'Settled',
  ACCC: 'Credited to the creditor',
  PART: 'Partly accepted',
  RJCT: 'Rejected',
  CANC: 'Cancelled',
};

/** A status code as words with the code beside it ("Rejected (RJCT)"); other references as they are. */
export function statusText(reference: string | undefined): string | undefined {
  if (reference === undefined) return undefined;
  const word = STATUS_WORDS[reference];
  return word ? `${word} (${reference})` : reference;
}

const COL = {
  e2e: { head: 'ERP reference', kind: 'text', cell: (f) => f.endToEndId },
  counterparty: { head: 'Creditor / counterparty', kind: 'party', cell: (f) => f.counterparty },
  account: { head: 'Account', kind: 'iban', cell: (f) => f.accountIban },
  executionDate: { head: 'Execution date', kind: 'date', cell: (f) => f.executionDate },
  bookingDate: { head: 'Booking date', kind: 'date', cell: (f) => f.bookingDate },
  days: { head: 'Days', kind: 'num', cell: (f) => f.dateDifferenceDays?.toString() },
  amount: { head: 'Amount', kind: 'num', cell: (f) => money(f.amount) },
  booked: { head: 'Booked', kind: 'num', cell: (f) => money(f.bookedAmount) },
  difference: { head: 'Difference', kind: 'num', cell: (f) => money(f.amountDifference) },
  rule: { head: 'Rule', kind: 'text', cell: (f) => f.rule },
  evidence: {
    head: 'Rule and evidence (score)',
    kind: 'note',
    cell: (f) =>
      f.evidence === undefined
        ? f.rule
        : `${f.rule ? `${f.rule}: ` : ''}${f.evidence.replace(/; score (\d+)$/, ' (score $1)')}`,
  },
  erpRef: { head: 'ERP reference / invoice', kind: 'text', cell: (f) => f.endToEndId ?? f.invoice },
  invoice: { head: 'Invoice', kind: 'text', cell: (f) => f.invoice },
  payer: { head: 'Payer', kind: 'party', cell: (f) => f.counterparty },
  creditorReference: { head: 'KID / RF', kind: 'text', cell: (f) => f.creditorReference },
  remittance: { head: 'Remittance', kind: 'note', cell: (f) => f.remittance },
  expectedDate: { head: 'Execution / due date', kind: 'date', cell: (f) => f.executionDate ?? f.due },
  received: { head: 'Received', kind: 'num', cell: (f) => money(f.bookedAmount) },
  bookedDue: {
    head: 'Booked (invoice due)',
    kind: 'text',
    cell: (f) => (f.due ? `${f.bookingDate ?? ''} (${f.due})` : f.bookingDate),
  },
  findingId: { head: 'Finding', kind: 'id', cell: (f) => f.id },
  reference: { head: 'Status / reference', kind: 'text', cell: (f) => statusText(f.reference) },
  due: { head: 'Due / expires', kind: 'text', cell: (f) => f.due },
  message: { head: 'Why', kind: 'text', cell: (f) => f.message },
  /** The message with the typed exception reason in front, where there is one. */
  why: {
    head: 'Why',
    kind: 'text',
    cell: (f) => {
      const reason = exceptionText(f);
      return reason ? `${reason}: ${f.message}` : f.message;
    },
  },
  payments: { head: 'settle payment', kind: 'id', cell: (f) => f.paymentIds.join(' ') },
  bulk: { head: 'settle bulk', kind: 'id', cell: (f) => f.bulkId },
  transaction: { head: 'Bank transaction', kind: 'id', cell: (f) => f.transactionId },
} as const satisfies Record<string, Column>;

/** Exception reasons in words; an under-payment of a receivable is provisional. */
function exceptionText(f: Finding): string | undefined {
  switch (f.exception) {
    case 'over_amount':
      return 'Over amount';
    case 'under_amount':
      return f.invoice ? 'Under amount (provisional)' : 'Under amount';
    case 'data_mismatch':
      return 'Data mismatch';
    case 'missing_after_deadline':
      return 'Missing after deadline';
    default:
      return undefined;
  }
}

const MATCHED: readonly Column[] = [
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.bookingDate,
  COL.days,
  COL.amount,
  COL.booked,
  COL.difference,
  COL.evidence,
  COL.message,
  COL.payments,
  COL.transaction,
];
const OPEN: readonly Column[] = [
  COL.e2e,
  COL.counterparty,
  COL.executionDate,
  COL.amount,
  COL.reference,
  COL.due,
  COL.message,
  COL.payments,
];

const CREDIT: readonly Column[] = [
  COL.payer,
  COL.creditorReference,
  COL.remittance,
  COL.invoice,
  COL.bookedDue,
  COL.received,
  COL.difference,
  COL.evidence,
  COL.why,
  COL.transaction,
];
const PROPOSED: readonly Column[] = [
  COL.erpRef,
  COL.counterparty,
  COL.expectedDate,
  COL.bookingDate,
  COL.amount,
  COL.booked,
  COL.difference,
  COL.evidence,
  COL.message,
  COL.findingId,
  COL.transaction,
];

export const COLUMNS_OF: Record<FindingType, readonly Column[]> = {
  not_booked: OPEN,
  amount_difference: MATCHED,
  booked_despite_rejection: MATCHED,
  unknown_outcome: OPEN,
  rejected: OPEN,
  unexpected_debit: [
    COL.counterparty,
    COL.account,
    COL.bookingDate,
    COL.booked,
    COL.e2e,
    COL.reference,
    COL.message,
    COL.transaction,
  ],
  match_proposed: PROPOSED,
  credit_over: CREDIT,
  unmatched_credit: [
    COL.payer,
    COL.creditorReference,
    COL.remittance,
    COL.bookingDate,
    COL.received,
    COL.message,
    COL.account,
    COL.findingId,
    COL.transaction,
  ],
  statement_gap: [COL.account, COL.reference, COL.difference, COL.message],
  approval_link_expired: [COL.reference, COL.amount, COL.due, COL.message, COL.bulk],
  approval_waiting: [COL.reference, COL.amount, COL.due, COL.message, COL.bulk],
  consent_expired: [COL.reference, COL.due, COL.message],
  consent_expiring: [COL.reference, COL.due, COL.message],
  date_difference: MATCHED,
  credit_partial: CREDIT,
  awaiting_booking: OPEN,
  rejected_resent: OPEN,
  matched: MATCHED,
  credit_matched: CREDIT,
};
