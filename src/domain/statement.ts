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

export interface StatementEntry {
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
  /** The other side: the debtor of a credit entry, the creditor of a debit entry. */
  counterparty?: Counterparty;
  remittance?: Remittance;
  additionalInfo?: string;
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
