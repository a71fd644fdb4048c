// The statement model: what the bank booked on one account over a period, as settle exports it
// (camt.053, statement CSV). Amounts are signed Money: positive = credit (money in), negative =
// debit (money out); the writers derive CdtDbtInd from the sign so the two can never disagree.
import type { LocalDate } from './local-date.js';
import { parseCreditorReference, type CreditorReferenceKind } from './creditor-reference.js';
import type { Money } from './money.js';

export type CreditDebit = 'CRDT' | 'DBIT';

/** ISO bank transaction code (Domn/Fmly/SubFmlyCd, e.g. PMNT/RCDT/ESCT) or the bank's own code. */
export type BankTransactionCode =
  { domain: string; family: string; subFamily: string } | { proprietary: string; issuer?: string };

export interface StatementAccount {
  iban: string;
  /** ISO 4217 code of the account; every balance and entry amount is in it. */
  currency: string;
  /** Name of the account (Acct/Nm). */
  name?: string;
  /** Name of the account owner, the company (Acct/Ownr/Nm). */
  ownerName?: string;
  servicerBic?: string;
  servicerName?: string;
}

export interface StatementBalance {
  /** Signed: a negative amount is a debit (overdrawn) balance. */
  amount: Money;
  date: LocalDate;
}

export interface Counterparty {
  name?: string;
  iban?: string;
  bic?: string;
}

export interface Remittance {
  unstructured?: string;
  /** Structured creditor reference (RF or national, e.g. a KID) whose check digits hold. */
  creditorReference?: string;
  /** What kind of reference `creditorReference` is; written as its issuer where the format has one. */
  creditorReferenceKind?: CreditorReferenceKind;
}

/** The ids of one transaction (TxDtls/Refs), each as the party that gave it. */
export interface TransactionReferences {
  /** The payment message the transaction came in: GrpHdr/MsgId of the ERP's pain.001. */
  messageId?: string;
  accountServicerRef?: string;
  paymentInformationId?: string;
  instructionId?: string;
  endToEndId?: string;
  /** The bank's id of the payment or transaction. */
  transactionId?: string;
  /** The bank's id of the bulk payment the line was sent in (Refs/Prtry, type BankPaymentId). */
  bankPaymentId?: string;
}

/**
 * The entry's code when the bank gave none (BkTxCd is mandatory): "miscellaneous credit or debit
 * operation" (PMNT/MCOP|MDOP/OTHR) rather than a more specific one settle cannot know. One rule
 * for every document that describes an entry.
 */
export function defaultBankTransactionCode(amount: Money): BankTransactionCode {
  return { domain: 'PMNT', family: amount.minor < 0n ? 'MDOP' : 'MCOP', subFamily: 'OTHR' };
}

/** A payment that came back: the ISO external return reason code (or the bank's own) and its text. */
export interface ReturnReason {
  code?: string;
  additionalInfo?: string;
}

/** One transaction an entry books (TxDtls). */
export interface TransactionDetails {
  refs?: TransactionReferences;
  /** Signed like the entry; the entry's amount when left out (a single-transaction entry). */
  amount?: Money;
  /** The amount as instructed, when the bank reports it (AmtDtls/InstdAmt); unsigned. */
  instructedAmount?: Money;
  counterparty?: Counterparty;
  remittance?: Remittance;
  returnReason?: ReturnReason;
}

/** A bulk the bank booked as one entry (NtryDtls/Btch). */
export interface BatchInformation {
  messageId?: string;
  paymentInformationId?: string;
  count: number;
  /** Signed like the entry. */
  total: Money;
}

export interface StatementEntry {
  /** The bank's own reference of the entry (NtryRef). */
  entryReference?: string;
  /** Signed: positive = credit (received), negative = debit (paid). */
  amount: Money;
  bookingDate: LocalDate;
  valueDate?: LocalDate;
  /** Only booked entries belong on a statement; the field exists so a caller can say so explicitly. */
  status?: 'BOOK';
  reversal?: boolean;
  accountServicerRef?: string;
  endToEndId?: string;
  bankTransactionCode?: BankTransactionCode;
  /** The bank's own code beside an ISO `bankTransactionCode` (BkTxCd/Prtry/Cd after Domn). */
  proprietaryBankTransactionCode?: string;
  /** The other side: the debtor of a credit entry, the creditor of a debit entry. */
  counterparty?: Counterparty;
  remittance?: Remittance;
  /** The bank's booking text (AddtlNtryInf). */
  additionalInfo?: string;
  batch?: BatchInformation;
  /**
   * The transactions booked in the entry, one TxDtls each (a batch entry: one per line). When
   * left out, endToEndId, counterparty and remittance above describe the one transaction.
   */
  transactions?: readonly TransactionDetails[];
}

/** Counts and sums of a statement's entries (TxsSummry); sums are unsigned, the net is signed. */
export interface TransactionsSummary {
  count: number;
  creditCount: number;
  creditSum: bigint;
  debitCount: number;
  debitSum: bigint;
}

export function summarizeEntries(entries: Iterable<StatementEntry>): TransactionsSummary {
  const s: TransactionsSummary = { count: 0, creditCount: 0, creditSum: 0n, debitCount: 0, debitSum: 0n };
  for (const entry of entries) {
    s.count++;
    if (entry.amount.minor < 0n) {
      s.debitCount++;
      s.debitSum -= entry.amount.minor;
    } else {
      s.creditCount++;
      s.creditSum += entry.amount.minor;
    }
  }
  return s;
}

export interface Statement {
  /** Stmt/Id, unique per account and period (also the message id unless messageId is given). */
  id: string;
  messageId?: string;
  /** Electronic sequence number, counting statements of the account. */
  sequenceNumber: number;
  legalSequenceNumber?: number;
  createdAt: Date;
  account: StatementAccount;
  fromDate: LocalDate;
  toDate: LocalDate;
  /** Opening booked balance (OPBD). */
  openingBalance: StatementBalance;
  /** Closing booked balance (CLBD). */
  closingBalance: StatementBalance;
  /** Written as TxsSummry when given; the writer checks it against the entries it writes. */
  summary?: TransactionsSummary;
  /** Streamed: writers consume it once and keep no entry after writing it. */
  entries: Iterable<StatementEntry> | AsyncIterable<StatementEntry>;
}

export function creditDebit(amount: Money): CreditDebit {
  return amount.minor < 0n ? 'DBIT' : 'CRDT';
}

export function absoluteMoney(amount: Money): Money {
  return amount.minor < 0n ? { minor: -amount.minor, currency: amount.currency } : amount;
}

/**
 * The remittance of an entry from the bank's free text and structured reference. A reference
 * whose check digits hold is structured; one that fails the check, or is no KID or RF at all,
 * is kept as text in front of the free text, so an ERP never books against a reference the
 * payer mistyped, and a person still sees what was sent.
 */
export function remittanceOf(unstructured: string | undefined, reference: string | undefined): Remittance | undefined {
  const text = unstructured?.trim() === '' ? undefined : unstructured?.trim();
  const raw = reference?.trim() === '' ? undefined : reference?.trim();
  const parsed = raw === undefined ? undefined : parseCreditorReference(raw);
  if (parsed?.valid === true) {
    return {
      ...(text === undefined ? {} : { unstructured: text }),
      creditorReference: parsed.value,
      creditorReferenceKind: parsed.kind,
    };
  }
  const joined = [raw, text].filter((t) => t !== undefined).join(' ');
  return joined === '' ? undefined : { unstructured: joined };
}
