// The debit/credit notification model (camt.054): the bookings of one account and day that an
// ERP books against its open items. A debit notification carries settle's own payments, one
// entry per booking with one transaction per payment the booking covers (several for a
// batch-booked bulk); a credit notification carries incoming payments with their remittance.
// Each entry is the statement's entry for the same booking (one booking, one description).
import type { LocalDate } from './local-date.js';
import type { StatementAccount, StatementEntry } from './statement.js';

export type NotificationKind = 'debit' | 'credit';

export interface Notification {
  kind: NotificationKind;
  /** Ntfctn/Id (≤ 35), also GrpHdr/MsgId. */
  id: string;
  /** Electronic sequence number, counting the account's notifications of this kind. */
  sequenceNumber: number;
  createdAt: Date;
  account: StatementAccount;
  fromDate: LocalDate;
  toDate: LocalDate;
  /** The bookings, each described as on the statement (jobs/statements/describe-bookings.ts). */
  entries: readonly StatementEntry[];
}
