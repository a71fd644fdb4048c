// A stored account period as a domain Statement. Everything in it is a function of the stored
// bank data and the period, never of the run: the statement id, the sequence number and the
// creation time are derived, so writing the same period again gives the same bytes.
import { createHash } from 'node:crypto';
import type { LocalDate } from '../../src/domain/local-date.js';
import {
  remittanceOf,
  summarizeEntries,
  type BankTransactionCode,
  type BatchInformation,
  type Counterparty,
  type Remittance,
  type Statement,
  type StatementAccount,
  type StatementEntry,
  type TransactionDetails,
} from '../../src/domain/statement.js';
import type { OwnPayment, PaymentRepository, StatementDay } from '../../src/store/index.js';
import type { StatementRepository, StoredTransaction } from '../../src/store/index.js';
import type { StoredAccount } from '../../src/store/index.js';
import { endOfDay } from '../../src/domain/zoned-time.js';

export interface StatementPeriod {
  account: StoredAccount;
  /** The company's id: its own payments are looked up to quote their ids. */
  company: string;
  ownerName: string;
  /** The complete days of the period, in order (at least one). */
  days: readonly StatementDay[];
  sequenceNumber: number;
  /** LglSeqNb, when the period has one. */
  legalSequenceNumber?: number;
  timeZone: string;
  /** The account's booked transactions by day, when the caller read them already for many days. */
  booked?: ReadonlyMap<LocalDate, readonly StoredTransaction[]>;
}

export interface StatementSources {
  statements: StatementRepository;
  payments: PaymentRepository;
}

/** Stmt/Id (≤ 35 characters): the period plus a digest of the bank's account id. */
export function statementId(accountId: string, from: LocalDate, to: LocalDate): string {
  const digest = createHash('sha256').update(accountId).digest('hex').slice(0, 12).toUpperCase();
  const compact = (d: LocalDate) => d.replaceAll('-', '');
  return from === to ? `${compact(from)}-${digest}` : `${compact(from)}-${compact(to)}-${digest}`;
}

export async function buildStatement(
  sources: StatementSources,
  period: StatementPeriod,
): Promise<{ statement: Statement; entries: StatementEntry[] }> {
  const first = period.days[0];
  const last = period.days.at(-1);
  if (first === undefined || last === undefined) throw new RangeError('a statement period needs at least one day');
  const { account } = period;
  const currency = account.currency ?? first.currency;
  const stored: StoredTransaction[] = [];
  for (const day of period.days) {
    const booked =
      period.booked === undefined
        ? await sources.statements.listTransactions(account.id, { status: 'booked', bookingDate: day.day })
        : [...(period.booked.get(day.day) ?? [])];
    stored.push(...booked.sort(byLedgerOrder));
  }
  const own = await ownPaymentsOf(sources.payments, period.company, stored);
  const entries = stored.map((tx) => toEntry(tx, own));
  const sum = stored.reduce((total, tx) => total + tx.amount.minor, 0n);
  const closing = last.closingMinor ?? 0n;
  // A day with a gap has no known opening; an explicit export then shows closing − entries.
  const opening = first.openingMinor ?? closing - sum;
  const statement: Statement = {
    id: statementId(account.id, first.day, last.day),
    sequenceNumber: period.sequenceNumber,
    ...(period.legalSequenceNumber === undefined ? {} : { legalSequenceNumber: period.legalSequenceNumber }),
    createdAt: endOfDay(last.day, period.timeZone),
    account: statementAccount(account, period.ownerName, currency),
    fromDate: first.day,
    toDate: last.day,
    openingBalance: { amount: { minor: opening, currency }, date: first.day },
    closingBalance: { amount: { minor: closing, currency }, date: last.day },
    summary: summarizeEntries(entries),
    entries,
  };
  return { statement, entries };
}

/** Booking date, then the bank's entry reference, then its id: stable whatever the insert order. */
export function byLedgerOrder(a: StoredTransaction, b: StoredTransaction): number {
  const key = (t: StoredTransaction) => [t.bookingDate ?? '', t.entryReference ?? '', t.bankTransactionId];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

/** Max35Text ids: a longer bank id (a UUID has 36 characters) is left out rather than cut. */
function fits(id: string | undefined): string | undefined {
  return id !== undefined && id.length <= 35 ? id : undefined;
}

/** AcctSvcrRef: the bank's servicer reference read at fetch time, else its entry reference. */
export function accountServicerRef(tx: StoredTransaction): string | undefined {
  return tx.accountServicerRef ?? tx.entryReference;
}

/** The account as the documents name it: IBAN (or the bank's id), currency, owner, servicer. */
export function statementAccount(account: StoredAccount, ownerName: string, currency: string): StatementAccount {
  return {
    iban: account.iban ?? account.id,
    currency: account.currency ?? currency,
    ownerName,
    ...(account.name === undefined ? {} : { name: account.name }),
    ...(account.servicerBic === undefined ? {} : { servicerBic: account.servicerBic }),
    ...(account.servicerName === undefined ? {} : { servicerName: account.servicerName }),
  };
}

/** The booking's own fields, as the bank reported them, without settle's payments. */
export function statementEntry(tx: StoredTransaction): StatementEntry {
  const entry: StatementEntry = { amount: tx.amount, bookingDate: tx.bookingDate!, status: 'BOOK' };
  if (tx.entryReference !== undefined) entry.entryReference = tx.entryReference;
  if (tx.valueDate !== undefined) entry.valueDate = tx.valueDate;
  const servicerRef = accountServicerRef(tx);
  if (servicerRef !== undefined) entry.accountServicerRef = servicerRef;
  const code = bankTransactionCode(tx.bankTransactionCode);
  if (code !== undefined) entry.bankTransactionCode = code;
  if (tx.additionalInfo !== undefined) entry.additionalInfo = tx.additionalInfo;
  if (tx.endToEndId !== undefined) entry.endToEndId = tx.endToEndId;
  if (tx.counterpartyName !== undefined || tx.counterpartyIban !== undefined) {
    entry.counterparty = {
      ...(tx.counterpartyName === undefined ? {} : { name: tx.counterpartyName }),
      ...(tx.counterpartyIban === undefined ? {} : { iban: tx.counterpartyIban }),
    };
  }
  const remittance = remittanceOf(tx.remittance, tx.creditorReference?.reference);
  if (remittance !== undefined) entry.remittance = remittance;
  return entry;
}

/** The booking with the ids of settle's own payments it books: one per line of a batch entry. */
function toEntry(tx: StoredTransaction, own: OwnPayments): StatementEntry {
  const entry = statementEntry(tx);
  const payment = tx.endToEndId === undefined ? undefined : own.byEndToEndId.get(tx.endToEndId);
  const batch = payment === undefined ? batchOf(tx, own) : undefined;
  if (batch !== undefined) {
    entry.batch = batch.info;
    entry.transactions = batch.lines.map(lineDetails);
    return entry;
  }
  const detail: TransactionDetails = {};
  const refs = dropUndefined({
    messageId: payment?.messageId,
    accountServicerRef: tx.accountServicerRef,
    paymentInformationId: payment?.paymentInformationId,
    instructionId: tx.instructionId,
    endToEndId: tx.endToEndId,
    transactionId: fits(tx.bankPaymentId) ?? fits(tx.bankTransactionId),
  });
  if (Object.keys(refs).length > 0) detail.refs = refs;
  if (tx.instructedAmount !== undefined) detail.instructedAmount = tx.instructedAmount;
  const counterparty = entry.counterparty ?? (payment === undefined ? undefined : creditorOf(payment));
  if (counterparty !== undefined) detail.counterparty = counterparty;
  // The payer's checked reference on an incoming payment, else the one settle's own payment carried.
  const remittance: Remittance = { ...entry.remittance };
  if (remittance.creditorReference === undefined && payment?.creditorReference !== undefined)
    remittance.creditorReference = payment.creditorReference;
  if (Object.keys(remittance).length > 0) detail.remittance = remittance;
  if (tx.returnReason !== undefined) detail.returnReason = { code: tx.returnReason };
  entry.transactions = [detail];
  return entry;
}

/**
 * A bulk the bank booked as one entry: the transaction names the bulk's bank id, and the lines
 * the bank did not refuse add up to the entry's amount. Anything less certain is left a plain
 * entry rather than given lines it may not hold.
 */
function batchOf(
  tx: StoredTransaction,
  own: OwnPayments,
): { info: BatchInformation; lines: readonly OwnPayment[] } | undefined {
  if (tx.bankPaymentId === undefined) return undefined;
  const lines = (own.byBankPaymentId.get(tx.bankPaymentId) ?? []).filter((p) => !REFUSED.has(p.state));
  if (lines.length === 0) return undefined;
  const total = lines.reduce((sum, p) => sum + p.amount.minor, 0n);
  if (-total !== tx.amount.minor) return undefined;
  const shared = (pick: (p: OwnPayment) => string | undefined): string | undefined => {
    const values = new Set(lines.map(pick));
    return values.size === 1 ? [...values][0] : undefined;
  };
  const info: BatchInformation = {
    ...dropUndefined({
      messageId: shared((p) => p.messageId),
      paymentInformationId: shared((p) => p.paymentInformationId),
    }),
    count: lines.length,
    total: tx.amount,
  };
  return { info, lines };
}

const REFUSED: ReadonlySet<string> = new Set(['RJCT', 'CANC']);

function lineDetails(p: OwnPayment): TransactionDetails {
  const refs = dropUndefined({
    messageId: p.messageId,
    paymentInformationId: p.paymentInformationId,
    endToEndId: p.endToEndId,
  });
  const remittance = dropUndefined({ unstructured: p.remittanceInformation, creditorReference: p.creditorReference });
  return {
    refs,
    amount: { minor: -p.amount.minor, currency: p.amount.currency },
    counterparty: creditorOf(p),
    ...(Object.keys(remittance).length > 0 ? { remittance } : {}),
  };
}

function creditorOf(p: OwnPayment): Counterparty {
  return { name: p.creditorName, iban: p.creditorIban, ...(p.creditorBic === undefined ? {} : { bic: p.creditorBic }) };
}

/** "PMNT-ICDT-ESCT" (ISO domain, family, sub-family) or the bank's own code. */
function bankTransactionCode(code: string | undefined): BankTransactionCode | undefined {
  if (code === undefined) return undefined;
  const iso = /^([A-Z]{4})-([A-Z]{4})-([A-Z]{4})$/.exec(code);
  if (iso !== null) return { domain: iso[1]!, family: iso[2]!, subFamily: iso[3]! };
  return { proprietary: code };
}

interface OwnPayments {
  byEndToEndId: Map<string, OwnPayment>;
  byBankPaymentId: Map<string, OwnPayment[]>;
}

async function ownPaymentsOf(
  payments: PaymentRepository,
  company: string,
  stored: readonly StoredTransaction[],
): Promise<OwnPayments> {
  const endToEndIds = stored.flatMap((t) => (t.endToEndId === undefined ? [] : [t.endToEndId]));
  const bankPaymentIds = stored.flatMap((t) => (t.bankPaymentId === undefined ? [] : [t.bankPaymentId]));
  const found = await payments.ownPayments(company, { endToEndIds, bankPaymentIds });
  const own: OwnPayments = { byEndToEndId: new Map(), byBankPaymentId: new Map() };
  for (const p of found) {
    own.byEndToEndId.set(p.endToEndId, p);
    if (p.bankPaymentId !== undefined)
      own.byBankPaymentId.set(p.bankPaymentId, [...(own.byBankPaymentId.get(p.bankPaymentId) ?? []), p]);
  }
  return own;
}

function dropUndefined<T extends Record<string, string | undefined>>(o: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: string };
}
