// The reconciliation report's columns: for each finding type, which facts of a finding it shows
// and how (text, an id, a number, a date, an IBAN, a party, a note), and the words for ISO 20022
// status codes and exception reasons. The HTML report (html.tsx) lays them out.
import type { Money } from '../../domain/money.js';
import type { Finding, FindingType } from '../../domain/reconcile/findings.js';
import { codeCell, evidenceText, recordedSentence, statusText, translate, type MessageKey } from '../../i18n/index.js';
import type { ReportFormats } from './report-formats.js';

export interface Column {
  head: MessageKey;
  /** id: settle's or the bank's internal ids, shown last and small; iban and party keep account numbers whole. */
  kind: 'text' | 'id' | 'num' | 'date' | 'iban' | 'party' | 'note';
  cell: (f: Finding, fmt: ReportFormats) => string | undefined;
}

const money = (m: Money | undefined, fmt: ReportFormats): string | undefined => (m ? fmt.money(m) : undefined);
const date = (d: string | undefined, fmt: ReportFormats): string | undefined => (d ? fmt.date(d) : undefined);

const COL = {
  e2e: { head: 'reportReconciliation.column.e2e', kind: 'text', cell: (f) => f.endToEndId },
  counterparty: { head: 'reportReconciliation.column.counterparty', kind: 'party', cell: (f) => f.counterparty },
  account: { head: 'reportReconciliation.column.account', kind: 'iban', cell: (f) => f.accountIban },
  executionDate: {
    head: 'reportReconciliation.column.executionDate',
    kind: 'date',
    cell: (f, fmt) => date(f.executionDate, fmt),
  },
  bookingDate: {
    head: 'reportReconciliation.column.bookingDate',
    kind: 'date',
    cell: (f, fmt) => date(f.bookingDate, fmt),
  },
  days: { head: 'reportReconciliation.column.days', kind: 'num', cell: (f) => f.dateDifferenceDays?.toString() },
  amount: { head: 'reportReconciliation.column.amount', kind: 'num', cell: (f, fmt) => money(f.amount, fmt) },
  booked: { head: 'reportReconciliation.column.booked', kind: 'num', cell: (f, fmt) => money(f.bookedAmount, fmt) },
  difference: {
    head: 'reportReconciliation.column.difference',
    kind: 'num',
    cell: (f, fmt) => money(f.amountDifference, fmt),
  },
  rule: {
    head: 'reportReconciliation.column.rule',
    kind: 'text',
    cell: (f, fmt) => (f.rule === undefined ? undefined : codeCell('rule', f.rule, fmt.locale)),
  },
  evidence: {
    head: 'reportReconciliation.column.evidence',
    kind: 'note',
    cell: (f, fmt) => {
      // English keeps the rule's code finance has always read; another language names the rule
      // with its code beside it ("KID (creditor-reference)").
      const rule = f.rule === undefined ? undefined : codeCell('rule', f.rule, fmt.locale);
      if (f.evidence === undefined) return rule;
      // English keeps the line the run recorded; another language reads it back into its parts.
      const said =
        (fmt.locale === 'en' ? undefined : evidenceText(f.evidence, fmt.locale)) ??
        f.evidence.replace(/; score (\d+)$/, ' (score $1)');
      return `${rule ? `${rule}: ` : ''}${said}`;
    },
  },
  erpRef: { head: 'reportReconciliation.column.erpRef', kind: 'text', cell: (f) => f.endToEndId ?? f.invoice },
  invoice: { head: 'reportReconciliation.column.invoice', kind: 'text', cell: (f) => f.invoice },
  payer: { head: 'reportReconciliation.column.payer', kind: 'party', cell: (f) => f.counterparty },
  creditorReference: {
    head: 'reportReconciliation.column.creditorReference',
    kind: 'text',
    cell: (f) => f.creditorReference,
  },
  remittance: { head: 'reportReconciliation.column.remittance', kind: 'note', cell: (f) => f.remittance },
  expectedDate: {
    head: 'reportReconciliation.column.expectedDate',
    kind: 'date',
    cell: (f, fmt) => date(f.executionDate ?? f.due, fmt),
  },
  received: { head: 'reportReconciliation.column.received', kind: 'num', cell: (f, fmt) => money(f.bookedAmount, fmt) },
  bookedDue: {
    head: 'reportReconciliation.column.bookedDue',
    kind: 'text',
    cell: (f, fmt) =>
      f.due
        ? translate(fmt.locale, 'reportReconciliation.bookedDue', {
            booked: date(f.bookingDate, fmt) ?? '',
            due: fmt.date(f.due),
          })
        : date(f.bookingDate, fmt),
  },
  findingId: { head: 'reportReconciliation.column.findingId', kind: 'id', cell: (f) => f.id },
  reference: {
    head: 'reportReconciliation.column.reference',
    kind: 'text',
    cell: (f, fmt) => statusText(f.reference, fmt.locale),
  },
  due: { head: 'reportReconciliation.column.due', kind: 'text', cell: (f, fmt) => date(f.due, fmt) },
  message: { head: 'reportReconciliation.column.why', kind: 'text', cell: (f, fmt) => said(f, fmt) },
  /** The message with the typed exception reason in front, where there is one. */
  why: {
    head: 'reportReconciliation.column.why',
    kind: 'text',
    cell: (f, fmt) => {
      const reason = exceptionText(f, fmt);
      return reason ? `${reason}: ${said(f, fmt)}` : said(f, fmt);
    },
  },
  payments: { head: 'reportReconciliation.column.payments', kind: 'id', cell: (f) => f.paymentIds.join(' ') },
  bulk: { head: 'reportReconciliation.column.bulk', kind: 'id', cell: (f) => f.bulkId },
  transaction: { head: 'reportReconciliation.column.transaction', kind: 'id', cell: (f) => f.transactionId },
} as const satisfies Record<string, Column>;

/** The finding's sentence in the report's language (the English the run wrote where it has no recorded text). */
function said(f: Finding, fmt: ReportFormats): string {
  return recordedSentence(fmt.locale, f.message, f.said);
}

/** Exception reasons in words; an under-payment of a receivable is provisional. */
function exceptionText(f: Finding, fmt: ReportFormats): string | undefined {
  if (f.exception === undefined) return undefined;
  const reason = f.exception === 'under_amount' && f.invoice ? 'under_amount_provisional' : f.exception;
  return translate(fmt.locale, 'reportReconciliation.exception', { reason });
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
