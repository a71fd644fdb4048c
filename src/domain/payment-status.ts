// The payment status report model: what settle tells an ERP about the lines of a file it picked
// up (pain.002, status CSV). One report per original file (pain.001 message); lines grouped by
// the original PmtInf (or, for CSV inputs, the bulk the file became).
import type { LocalDate } from './local-date.js';
import type { Money } from './money.js';

/**
 * ISO 20022 payment transaction status codes settle reports. RCVD and CANC are external codes
 * pain.002.001.10 allows; pain.002.001.03 has no such transaction status (see docs/formats/pain002.md).
 */
export type PaymentLineStatus = 'RCVD' | 'PDNG' | 'ACTC' | 'ACCP' | 'ACSP' | 'ACSC' | 'ACWC' | 'RJCT' | 'CANC';

export interface PaymentStatusLine {
  /** 1-based position of the line in its original file. */
  lineNumber: number;
  endToEndId: string;
  originalInstructionId?: string;
  status: PaymentLineStatus;
  /** ISO external status reason codes (e.g. AC01) or the bank's own reason codes. */
  reasonCodes?: readonly string[];
  /** Human-readable reason (bank problem detail, validation message). */
  reasonText?: string;
  /** The bank's payment id for the line or its bulk. */
  bankPaymentId?: string;
  amount?: Money;
  /** When the status was reached. */
  time: Date;
  /**
   * The bank booked the payment back after it was accepted (a return, reversal or reject after
   * settlement): the status is RJCT with the return's reason, and this says it is a return and
   * not a refusal before booking.
   */
  returned?: PaymentReturn;
}

/** The booking of a payment that came back. */
export interface PaymentReturn {
  /** The day the bank booked the money back. */
  bookingDate: LocalDate;
  /** The return booking's bank transaction code as the statements show it (e.g. PMNT-ICDT-RRTN). */
  bankTransactionCode?: string;
}

export interface PaymentStatusGroup {
  /** The original PmtInfId (or a bulk id for CSV inputs). */
  originalPaymentInformationId: string;
  lines: readonly PaymentStatusLine[];
}

export interface PaymentStatusReport {
  messageId: string;
  /** The party the original payments were initiated for: the company (name and organisation number). */
  initiatingParty?: { name: string; organisationNumber?: string };
  createdAt: Date;
  /** Name of the file the ERP dropped (for the status CSV). */
  originalFileName?: string;
  /** The original message id (pain.001 GrpHdr/MsgId, or a file id for CSV inputs). */
  originalMessageId: string;
  /** e.g. "pain.001.001.03", "pain.001.001.09". */
  originalMessageNameId: string;
  originalCreatedAt?: Date;
  groups: readonly PaymentStatusGroup[];
}

/** A group's status in ISO 20022 terms: the line statuses plus PART (some lines refused, others not). */
export type PaymentGroupStatus = PaymentLineStatus | 'PART';

/** How far a line has come: a group that is not partly refused reports its least advanced line. */
const PROGRESS: readonly PaymentLineStatus[] = ['RCVD', 'PDNG', 'ACTC', 'ACCP', 'ACWC', 'ACSP', 'ACSC'];
const REFUSED = new Set<string>(['RJCT', 'CANC']);

/**
 * The status of a group of lines (a PmtInf or a whole file), as banks derive it: every line the
 * same → that status; every line refused → RJCT (CANC when all were cancelled); some refused and
 * some not → PART; otherwise the least advanced line's status (ACSP and ACSC → ACSP).
 */
export function groupStatus(statuses: readonly PaymentLineStatus[]): PaymentGroupStatus | undefined {
  const first = statuses[0];
  if (first === undefined) return undefined;
  if (statuses.every((s) => s === first)) return first;
  const refused = statuses.filter((s) => REFUSED.has(s)).length;
  if (refused === statuses.length) return 'RJCT';
  if (refused > 0) return 'PART';
  // A loop, not Math.min(...): a file's group can hold more lines than a call has arguments.
  let least = PROGRESS.length;
  for (const s of statuses) least = Math.min(least, PROGRESS.indexOf(s));
  return PROGRESS[least];
}
