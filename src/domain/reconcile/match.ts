// Matching of the payments settle sent against booked debit transactions. Every rule works
// through hash indexes, so matching is O(payments + transactions) expected; rules run in the
// configured order and each one only sees what earlier rules left unmatched, so no transaction
// and no payment is ever matched twice. Ties are broken by input order: the same input always
// gives the same matches.
import type { LocalDate } from '../local-date.js';
import type { ReconcileConfig, MatchRule } from './config.js';
import type { BookedTransaction, SentPayment } from './inputs.js';

export interface Match {
  rule: MatchRule;
  /** Indexes into the payments array: one, or every line of a batch-booked bulk. */
  payments: readonly number[];
  /** Index into the transactions array. */
  transaction: number;
  /** Booked debit (as a positive amount) minus the sent amount, in minor units; undefined when the currencies differ. */
  amountDifferenceMinor: bigint | undefined;
  /** Booking date minus requested execution date, in calendar days. */
  dateDifferenceDays: number;
}

export interface MatchResult {
  /** In rule order, then in payment input order. */
  matches: Match[];
  /** payment index → index into `matches`, or -1 when unmatched. */
  matchOfPayment: Int32Array;
  /** transaction index → index into `matches`, or -1 when unmatched. */
  matchOfTransaction: Int32Array;
}

type MatchConfig = Pick<
  ReconcileConfig,
  'rules' | 'dateWindowDays' | 'amountToleranceMinor' | 'amountRuleOnlyWithoutEndToEnd'
>;

const SEP = '\u0000';

/** Banks write "NOTPROVIDED" when the payer gave no end-to-end id. */
export function hasEndToEndId(id: string | undefined): id is string {
  return id !== undefined && id !== '' && id !== 'NOTPROVIDED';
}

/** IBANs are compared in electronic format; most already are, so the regex test is the common cost. */
function ibanKey(iban: string): string {
  return /[\sa-z]/.test(iban) ? iban.replace(/\s+/g, '').toUpperCase() : iban;
}

function sameIban(a: string, b: string): boolean {
  return a === b || ibanKey(a) === ibanKey(b);
}

/** Hash chains in input order: head.get(key) is the first index, next[i] the following one (-1 = end). */
class ChainIndex {
  readonly head = new Map<string, number>();
  readonly next: Int32Array;
  constructor(size: number) {
    this.next = new Int32Array(size).fill(-1);
  }
  /** Add in reverse input order so that walking a chain visits indexes in input order. */
  prepend(key: string, index: number): void {
    const first = this.head.get(key);
    this.next[index] = first ?? -1;
    this.head.set(key, index);
  }
}

export function matchPayments(
  payments: readonly SentPayment[],
  transactions: readonly BookedTransaction[],
  config: MatchConfig,
): MatchResult {
  const matches: Match[] = [];
  const matchOfPayment = new Int32Array(payments.length).fill(-1);
  const matchOfTransaction = new Int32Array(transactions.length).fill(-1);
  const dayNumbers = new DayNumbers();

  const record = (
    rule: MatchRule,
    paymentIndexes: readonly number[],
    transaction: number,
    sentMinor: bigint,
    currency: string,
  ): void => {
    const tx = transactions[transaction]!;
    const first = payments[paymentIndexes[0]!]!;
    const index = matches.length;
    matches.push({
      rule,
      payments: paymentIndexes,
      transaction,
      amountDifferenceMinor: tx.amount.currency === currency ? -tx.amount.minor - sentMinor : undefined,
      dateDifferenceDays: dayNumbers.between(first.requestedExecutionDate, tx.bookingDate),
    });
    for (const p of paymentIndexes) matchOfPayment[p] = index;
    matchOfTransaction[transaction] = index;
  };

  const isOpenDebit = (i: number): boolean => matchOfTransaction[i] === -1 && transactions[i]!.amount.minor < 0n;
  const expectsBooking = (p: SentPayment): boolean => p.outcome === 'sent' || p.outcome === 'unknown';

  for (const rule of config.rules) {
    if (rule === 'end-to-end') endToEnd();
    else if (rule === 'amount-account-date') amountAccountDate();
    else batchLumpSum();
  }
  return { matches, matchOfPayment, matchOfTransaction };

  // Rule 1: the end-to-end id the bank reports equals the one settle sent, on the debtor account.
  // Rejected and cancelled lines take part too: a booking for one of them must come to light.
  // The index is keyed by the id string itself (its hash is cached by the engine) and the
  // account is checked while walking the chain: building "account + id" keys costs more.
  function endToEnd(): void {
    const index = new ChainIndex(transactions.length);
    for (let i = transactions.length - 1; i >= 0; i--) {
      const tx = transactions[i]!;
      if (isOpenDebit(i) && hasEndToEndId(tx.endToEndId)) index.prepend(tx.endToEndId, i);
    }
    for (let p = 0; p < payments.length; p++) {
      if (matchOfPayment[p] !== -1) continue;
      const payment = payments[p]!;
      let chosen = -1;
      // Prefer the first open transaction with the exact amount (a rebooking can repeat an id), else the first open one.
      for (let i = index.head.get(payment.endToEndId) ?? -1; i !== -1; i = index.next[i]!) {
        if (matchOfTransaction[i] !== -1 || !sameIban(transactions[i]!.accountIban, payment.debtorIban)) continue;
        const amount = transactions[i]!.amount;
        if (amount.currency === payment.amount.currency && -amount.minor === payment.amount.minor) {
          chosen = i;
          break;
        }
        if (chosen === -1) chosen = i;
      }
      if (chosen !== -1) record('end-to-end', [p], chosen, payment.amount.minor, payment.amount.currency);
    }
  }

  // Rule 2: same debtor account, creditor account, currency and amount (within the tolerance),
  // booked within the date window. The closest date wins, then the smallest difference, then input order.
  function amountAccountDate(): void {
    const exact = config.amountToleranceMinor === 0n;
    const key = (account: string, counterparty: string, currency: string, debitMinor: bigint): string =>
      ibanKey(account) + SEP + ibanKey(counterparty) + SEP + currency + (exact ? SEP + debitMinor.toString() : '');
    const index = new ChainIndex(transactions.length);
    for (let i = transactions.length - 1; i >= 0; i--) {
      const tx = transactions[i]!;
      if (!isOpenDebit(i) || tx.counterpartyIban === undefined) continue;
      if (config.amountRuleOnlyWithoutEndToEnd && hasEndToEndId(tx.endToEndId)) continue;
      index.prepend(key(tx.accountIban, tx.counterpartyIban, tx.amount.currency, -tx.amount.minor), i);
    }
    if (index.head.size === 0) return;
    for (let p = 0; p < payments.length; p++) {
      const payment = payments[p]!;
      if (matchOfPayment[p] !== -1 || !expectsBooking(payment)) continue;
      let chosen = -1;
      let bestDays = Infinity;
      let bestDiff = 0n;
      const k = key(payment.debtorIban, payment.creditorIban, payment.amount.currency, payment.amount.minor);
      for (let i = index.head.get(k) ?? -1; i !== -1; i = index.next[i]!) {
        if (matchOfTransaction[i] !== -1) continue;
        const tx = transactions[i]!;
        const diff = abs(-tx.amount.minor - payment.amount.minor);
        if (diff > config.amountToleranceMinor) continue;
        const days = Math.abs(dayNumbers.between(payment.requestedExecutionDate, tx.bookingDate));
        if (days > config.dateWindowDays) continue;
        if (days < bestDays || (days === bestDays && diff < bestDiff)) {
          chosen = i;
          bestDays = days;
          bestDiff = diff;
        }
      }
      if (chosen !== -1) record('amount-account-date', [p], chosen, payment.amount.minor, payment.amount.currency);
    }
  }

  // Rule 3: a bulk sent with batch booking may be booked as one debit of the sum of its lines.
  // It matches only when every line that expects a booking is still unmatched, all lines share
  // account and currency, and a debit of exactly that sum was booked within the date window.
  function batchLumpSum(): void {
    const bulks = new Map<string, number[]>();
    for (let p = 0; p < payments.length; p++) {
      const payment = payments[p]!;
      if (!payment.batchBooking || !expectsBooking(payment)) continue;
      const lines = bulks.get(payment.bulkId);
      if (lines) lines.push(p);
      else bulks.set(payment.bulkId, [p]);
    }
    if (bulks.size === 0) return;
    const key = (account: string, currency: string, debitMinor: bigint): string =>
      ibanKey(account) + SEP + currency + SEP + debitMinor.toString();
    const index = new ChainIndex(transactions.length);
    for (let i = transactions.length - 1; i >= 0; i--) {
      const tx = transactions[i]!;
      if (isOpenDebit(i)) index.prepend(key(tx.accountIban, tx.amount.currency, -tx.amount.minor), i);
    }
    for (const lines of bulks.values()) {
      const first = payments[lines[0]!]!;
      let sum = 0n;
      let consistent = true;
      for (const p of lines) {
        const line = payments[p]!;
        if (
          matchOfPayment[p] !== -1 ||
          line.amount.currency !== first.amount.currency ||
          !sameIban(line.debtorIban, first.debtorIban)
        ) {
          consistent = false;
          break;
        }
        sum += line.amount.minor;
      }
      if (!consistent) continue;
      let chosen = -1;
      let bestDays = Infinity;
      for (
        let i = index.head.get(key(first.debtorIban, first.amount.currency, sum)) ?? -1;
        i !== -1;
        i = index.next[i]!
      ) {
        if (matchOfTransaction[i] !== -1) continue;
        const days = Math.abs(dayNumbers.between(first.requestedExecutionDate, transactions[i]!.bookingDate));
        if (days <= config.dateWindowDays && days < bestDays) {
          chosen = i;
          bestDays = days;
        }
      }
      if (chosen !== -1) record('batch-lump-sum', lines, chosen, sum, first.amount.currency);
    }
  }
}

/** Day differences with the day number of each distinct date computed once (there are few distinct dates, and many rows). */
class DayNumbers {
  private readonly cache = new Map<string, number>();
  between(a: LocalDate, b: LocalDate): number {
    return this.of(b) - this.of(a);
  }
  private of(date: LocalDate): number {
    let n = this.cache.get(date);
    if (n === undefined) {
      n = Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
      this.cache.set(date, n);
    }
    return n;
  }
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}
