// The debit/credit notification model (camt.054): the bookings of one account and day that an
// ERP books against its open items. A debit notification carries settle's own payments, one
// entry per booking with one transaction per payment line the booking covers (several for a
// batch-booked bulk); a credit notification carries incoming payments with their remittance.
// Amounts are signed like the statement model: positive = credit, negative = debit.
import type { LocalDate } from './local-date.js';
import type { Money } from './money.js';
import type { BankTransactionCode, Counterparty, Remittance, StatementAccount } from './statement.js';

export type NotificationKind = 'debit' | 'credit';

/** The ids a line is known by, each written only when known (TxDtls/Refs). */
export interface NotificationReferences {
  /** GrpHdr/MsgId of the ERP's payment file. */
  messageId?: string;
  /** The bank's reference of the booking. */
  accountServicerRef?: string;
  /** PmtInfId of the ERP's payment information block. */
  paymentInformationId?: string;
  endToEndId?: string;
  /** The bank's id of the bulk payment the line was sent in (Refs/Prtry, type BankPaymentId). */
  bankPaymentId?: string;
}

export interface NotificationTransaction {
  /** Signed like the entry it belongs to. */
  amount: Money;
  references: NotificationReferences;
  /** The other side: the creditor of a debit, the debtor of a credit. */
  counterparty?: Counterparty;
  remittance?: Remittance;
}

export interface NotificationEntry {
  /** Signed: positive = credit, negative = debit. */
  amount: Money;
  bookingDate: LocalDate;
  valueDate?: LocalDate;
  /** The bank's id of the booking (NtryRef). */
  entryReference?: string;
  accountServicerRef?: string;
  bankTransactionCode?: BankTransactionCode;
  /** One per payment line the booking covers; more than one makes the entry a batch (Btch). */
  transactions: NotificationTransaction[];
  additionalInfo?: string;
}

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
  entries: readonly NotificationEntry[];
}
