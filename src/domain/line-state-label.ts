// A payment line's state in plain words, for people: the console and the human reports show the
// code (RJCT) next to what it means ("Rejected by the bank: AC04 Closed account number") and what
// to do. The ERP's files keep the codes alone. Every state has a label: the Record makes a new
// state a compile error until it is described.
import { actionFor } from './line-message.js';
import type { LineState } from './states.js';

const LABELS: Readonly<Record<LineState, string>> = {
  accepted: 'Accepted from the file, not yet sent',
  held: 'Held: a person must release or drop it',
  queued: 'Waiting to be sent again in a new bulk',
  sent: 'Sent; the bank has not answered yet',
  unknown: 'Outcome unknown: settle is asking the bank whether it has the payment',
  RCVD: 'Received by the bank',
  PDNG: 'Pending at the bank',
  ACTC: 'Accepted by the bank (technical checks passed)',
  ACCP: 'Accepted by the bank (customer profile checked)',
  ACFC: 'Accepted by the bank (funds checked)',
  ACWP: 'Accepted by the bank, not yet booked',
  ACWC: 'Accepted by the bank with a change',
  PATC: 'Waiting for more signatures',
  PART: 'Partly accepted by the bank',
  ACSP: 'Being paid: settlement in progress',
  ACSC: 'Paid from the debtor account',
  ACCC: 'Paid: credited to the creditor',
  RJCT: 'Rejected by the bank',
  CANC: 'Cancelled',
};

export interface BankReason {
  code: string;
  text?: string;
}

export interface LineStateDescription {
  /** e.g. "Rejected by the bank: AC04 Closed account number". */
  label: string;
  /** What a person does about it, where the bank gave a reason for a rejection or cancellation. */
  action?: string;
}

/** The line's state in plain words, with the bank's first reason where it gave one. */
export function describeLineState(state: LineState, reasons: readonly BankReason[] = []): LineStateDescription {
  const first = reasons[0];
  const label = LABELS[state];
  if (!first) return { label };
  const reason = [first.code, first.text].filter(Boolean).join(' ');
  const ended = state === 'RJCT' || state === 'CANC';
  return { label: `${label}: ${reason}`, ...(ended ? { action: actionFor(first.code) } : {}) };
}
