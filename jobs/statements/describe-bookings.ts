// One booking, one description (issue #47): every field of an entry is derived here, once, from
// the bank's booking and settle's own payments it books, and every document that shows the
// booking (camt.053, camt.054 debit and credit notifications, the statement CSV) renders this
// description and decides nothing of its own. Payments are found by the ids the bank gives
// (end-to-end id, the bulk's payment id); a debit the bank gives none for is matched by the
// rules reconciliation uses (own-payments.ts), when the caller has them.
import type { LocalDate } from '../../src/domain/local-date.js';
import {
  defaultBankTransactionCode,
  remittanceOf,
  type BankTransactionCode,
  type BatchInformation,
  type Counterparty,
  type Remittance,
  type StatementEntry,
  type TransactionDetails,
} from '../../src/domain/statement.js';
import type { OwnPayment, PaymentRepository, StoredTransaction } from '../../src/store/index.js';
import type { OwnPaymentLine, OwnPaymentSource } from './own-payments.js';
import { addTo } from '../../src/domain/group.js';

export interface DescribeSources {
  payments: PaymentRepository;
  /** Matches debits the bank gave no id for to settle's payments; without it, such debits show none. */
  ownPayments?: OwnPaymentSource;
}

/** A booking's description, and whether it books settle's own payments (a debit notification's content). */
export interface DescribedBooking {
  entry: StatementEntry;
  ownLines: boolean;
}

/** The entries of `stored` (one account's bookings, in ledger order), in the same order. */
export async function describeBookings(
  sources: DescribeSources,
  account: { company: string; iban: string },
  stored: readonly StoredTransaction[],
): Promise<DescribedBooking[]> {
  const own = await ownPaymentsOf(sources.payments, account.company, stored);
  const described = stored.map((tx) => {
    const { ownLines, ...entry } = toEntry(tx, own);
    return { entry, ownLines };
  });
  if (sources.ownPayments !== undefined) await matchUnnamedDebits(sources.ownPayments, account, stored, described);
  return described;
}

/** Debits the bank named no payment of settle's for: the lines reconciliation's rules match them to. */
async function matchUnnamedDebits(
  source: OwnPaymentSource,
  account: { company: string; iban: string },
  stored: readonly StoredTransaction[],
  described: DescribedBooking[],
): Promise<void> {
  const byDay = new Map<LocalDate, number[]>();
  stored.forEach((tx, i) => {
    if (tx.amount.minor >= 0n || described[i]!.ownLines || tx.bookingDate === undefined) return;
    addTo(byDay, tx.bookingDate, i);
  });
  for (const [day, indexes] of byDay) {
    const linesOf = await source.linesOf(
      account.company,
      account.iban,
      day,
      indexes.map((i) => stored[i]!),
    );
    for (const i of indexes) {
      const tx = stored[i]!;
      const lines = linesOf.get(tx.id);
      if (lines === undefined || lines.length === 0) continue;
      const entry = described[i]!.entry;
      entry.transactions = lines.map((line) => matchedLine(line, accountServicerRef(tx)));
      if (lines.length > 1) entry.batch = { ...batchIds(lines), count: lines.length, total: tx.amount };
      described[i] = { entry, ownLines: true };
    }
  }
}

function matchedLine(line: OwnPaymentLine, accountServicerRef: string | undefined): TransactionDetails {
  return lineDetails(
    {
      ...line.payment,
      ...(line.references.messageId === undefined ? {} : { messageId: line.references.messageId }),
      ...(line.references.bankPaymentId === undefined ? {} : { bankPaymentId: line.references.bankPaymentId }),
    },
    accountServicerRef,
  );
}

function batchIds(lines: readonly OwnPaymentLine[]): { messageId?: string; paymentInformationId?: string } {
  const shared = (key: 'messageId' | 'paymentInformationId'): string | undefined => {
    const values = new Set(lines.map((l) => l.references[key]));
    return values.size === 1 ? [...values][0] : undefined;
  };
  return dropUndefined({ messageId: shared('messageId'), paymentInformationId: shared('paymentInformationId') });
}

/** The booking's own fields, as the bank reported them, without settle's payments. */
export function statementEntry(tx: StoredTransaction): StatementEntry {
  const entry: StatementEntry = { amount: tx.amount, bookingDate: tx.bookingDate!, status: 'BOOK' };
  if (tx.entryReference !== undefined) entry.entryReference = tx.entryReference;
  if (tx.valueDate !== undefined) entry.valueDate = tx.valueDate;
  const servicerRef = accountServicerRef(tx);
  if (servicerRef !== undefined) entry.accountServicerRef = servicerRef;
  entry.bankTransactionCode =
    bankTransactionCode(tx.bankTransactionCode) ??
    // A credit transfer of ours that came back, when the bank gave no code: booked as a return.
    (tx.returnReason !== undefined && tx.amount.minor > 0n ? RETURNED_TRANSFER : defaultBankTransactionCode(tx.amount));
  if (tx.proprietaryBankTransactionCode !== undefined && !('proprietary' in entry.bankTransactionCode))
    entry.proprietaryBankTransactionCode = tx.proprietaryBankTransactionCode;
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

/** AcctSvcrRef: the bank's servicer reference read at fetch time, else its entry reference. */
export function accountServicerRef(tx: StoredTransaction): string | undefined {
  return tx.accountServicerRef ?? tx.entryReference;
}

/** The booking with the ids of settle's own payments it books: one per line of a batch entry. */
function toEntry(tx: StoredTransaction, own: OwnPayments): StatementEntry & { ownLines: boolean } {
  const entry = statementEntry(tx);
  const payment = tx.endToEndId === undefined ? undefined : own.byEndToEndId.get(tx.endToEndId);
  const batch = payment === undefined ? batchOf(tx, own) : undefined;
  if (batch !== undefined) {
    entry.batch = batch.info;
    entry.transactions = batch.lines.map((line) => lineDetails(line, accountServicerRef(tx)));
    return { ...entry, ownLines: true };
  }
  const detail: TransactionDetails = {};
  const refs = dropUndefined({
    messageId: payment?.messageId,
    accountServicerRef: accountServicerRef(tx),
    paymentInformationId: payment?.paymentInformationId,
    // The bank's, else the ERP's own InstrId of settle's payment: the same id the pain.002 quotes.
    instructionId: tx.instructionId ?? payment?.instructionId,
    endToEndId: tx.endToEndId,
    // The full id: a writer never cuts it (docs/formats/identifiers.md).
    transactionId: tx.bankPaymentId ?? tx.bankTransactionId,
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
  // A payment that came back says so with its reason and the bank's words (RtrInf), and keeps
  // the original ids above, so an ERP matching by end-to-end id sees a return, not a payment.
  if (tx.returnReason !== undefined)
    detail.returnReason = {
      code: tx.returnReason,
      ...(tx.additionalInfo === undefined ? {} : { additionalInfo: tx.additionalInfo }),
    };
  entry.transactions = [detail];
  return { ...entry, ownLines: payment !== undefined && tx.amount.minor < 0n };
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

const RETURNED_TRANSFER: BankTransactionCode = { domain: 'PMNT', family: 'ICDT', subFamily: 'RRTN' };

const REFUSED: ReadonlySet<string> = new Set(['RJCT', 'CANC']);

/** One line of settle's own payments a booking covers, with the ids the ERP and the bank know it by. */
function lineDetails(p: OwnPayment, accountServicerRef?: string): TransactionDetails {
  const refs = dropUndefined({
    messageId: p.messageId,
    accountServicerRef,
    paymentInformationId: p.paymentInformationId,
    instructionId: p.instructionId,
    endToEndId: p.endToEndId,
    bankPaymentId: p.bankPaymentId,
  });
  const remittance = remittanceOf(p.remittanceInformation, p.creditorReference);
  return {
    refs,
    amount: { minor: -p.amount.minor, currency: p.amount.currency },
    counterparty: creditorOf(p),
    ...(remittance === undefined ? {} : { remittance }),
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
    if (p.bankPaymentId !== undefined) addTo(own.byBankPaymentId, p.bankPaymentId, p);
  }
  return own;
}

function dropUndefined<T extends Record<string, string | undefined>>(o: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: string };
}
