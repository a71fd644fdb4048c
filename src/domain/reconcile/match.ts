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

/**
 * Hash chains in input order: first(key) is the first index, next[i] the following one (-1 = end).
 * Keys are end-to-end ids or amounts as numbers: a number key needs no string built per row, and
 * every other part of a rule's key is checked while walking the (short) chain instead.
 *
 * Building costs one Map.set per row when keys are unique (end-to-end ids nearly always are):
 * add() lets a later index overwrite an earlier one, and link() — only when some key repeated —
 * walks the rows backwards to chain them in input order.
 */
class ChainIndex<K extends string | number> {
  readonly head = new Map<K, number>();
  readonly next: Int32Array;
  private readonly added: Int32Array;
  private count = 0;
  private repeated = false;
  constructor(size: number) {
    this.next = new Int32Array(size).fill(-1);
    this.added = new Int32Array(size);
  }
  /** Indexes must come in ascending order. */
  add(key: K, index: number): void {
    const size = this.head.size;
    this.head.set(key, index);
    if (this.head.size === size) this.repeated = true;
    this.added[this.count++] = index;
  }
  /** Call once after the last add(), with the key each added index was given. */
  link(keyOf: (index: number) => K): this {
    if (!this.repeated) return this;
    // Backwards, head holds the following index of the same key; the last one keeps next = -1.
    for (let k = this.count - 1; k >= 0; k--) {
      const index = this.added[k]!;
      const key = keyOf(index);
      const following = this.head.get(key)!;
      if (following !== index) {
        this.next[index] = following;
        this.head.set(key, index);
      }
    }
    return this;
  }
  first(key: K): number {
    return this.head.get(key) ?? -1;
  }
}

/**
 * An amount in minor units as a hash key. Beyond 2^53 distinct amounts can share a key; every
 * rule compares the exact amounts of the candidates it walks, so that only lengthens a chain.
 */
const amountKey = (minor: bigint): number => Number(minor);

export function matchPayments(
  payments: readonly SentPayment[],
  transactions: readonly BookedTransaction[],
  config: MatchConfig,
): MatchResult {
  const matches: Match[] = [];
  const matchOfPayment = new Int32Array(payments.length).fill(-1);
  const matchOfTransaction = new Int32Array(transactions.length).fill(-1);
  const dayNumbers = new DayNumbers();

  /** `difference` is booked debit minus sent, when the caller has it (saves a bigint per match). */
  const record = (
    rule: MatchRule,
    paymentIndexes: readonly number[],
    transaction: number,
    sentMinor: bigint,
    difference?: bigint,
  ): void => {
    const tx = transactions[transaction]!;
    const first = payments[paymentIndexes[0]!]!;
    // Every line of a match has the first one's currency (the lump-sum rule groups by it).
    const currency = first.amount.currency;
    const index = matches.length;
    matches.push({
      rule,
      payments: paymentIndexes,
      transaction,
      amountDifferenceMinor:
        tx.amount.currency !== currency ? undefined : (difference ?? debitDifference(tx.amount.minor, sentMinor)),
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
    const index = new ChainIndex<string>(transactions.length);
    for (let i = 0; i < transactions.length; i++) {
      const tx = transactions[i]!;
      if (isOpenDebit(i) && hasEndToEndId(tx.endToEndId)) index.add(tx.endToEndId, i);
    }
    index.link((i) => transactions[i]!.endToEndId!);
    for (let p = 0; p < payments.length; p++) {
      if (matchOfPayment[p] !== -1) continue;
      const payment = payments[p]!;
      let chosen = -1;
      // Prefer the first open transaction with the exact amount (a rebooking can repeat an id), else the first open one.
      for (let i = index.first(payment.endToEndId); i !== -1; i = index.next[i]!) {
        if (matchOfTransaction[i] !== -1) continue;
        const tx = transactions[i]!;
        if (!sameIban(tx.accountIban, payment.debtorIban)) continue;
        if (tx.amount.currency === payment.amount.currency && tx.amount.minor + payment.amount.minor === 0n) {
          record('end-to-end', [p], i, payment.amount.minor, 0n);
          chosen = -1;
          break;
        }
        if (chosen === -1) chosen = i;
      }
      if (chosen !== -1) record('end-to-end', [p], chosen, payment.amount.minor);
    }
  }

  // Rule 2: same debtor account, creditor account, currency and amount (within the tolerance),
  // booked within the date window. The closest date wins, then the smallest difference, then input order.
  // With no tolerance (the default) the index is keyed by the amount alone and the accounts and
  // currency are compared on the chain; with one, by the accounts and currency.
  function amountAccountDate(): void {
    const exact = config.amountToleranceMinor === 0n;
    const accountsKey = (account: string, counterparty: string, currency: string): string =>
      ibanKey(account) + SEP + ibanKey(counterparty) + SEP + currency;
    const keyOf = (i: number): string | number => {
      const tx = transactions[i]!;
      return exact
        ? -amountKey(tx.amount.minor)
        : accountsKey(tx.accountIban, tx.counterpartyIban!, tx.amount.currency);
    };
    const index = new ChainIndex<string | number>(transactions.length);
    for (let i = 0; i < transactions.length; i++) {
      const tx = transactions[i]!;
      if (!isOpenDebit(i) || tx.counterpartyIban === undefined) continue;
      if (config.amountRuleOnlyWithoutEndToEnd && hasEndToEndId(tx.endToEndId)) continue;
      index.add(keyOf(i), i);
    }
    index.link(keyOf);
    if (index.head.size === 0) return;
    for (let p = 0; p < payments.length; p++) {
      const payment = payments[p]!;
      if (matchOfPayment[p] !== -1 || !expectsBooking(payment)) continue;
      let chosen = -1;
      let bestDays = Infinity;
      let bestDiff = 0n;
      const key = exact
        ? amountKey(payment.amount.minor)
        : accountsKey(payment.debtorIban, payment.creditorIban, payment.amount.currency);
      for (let i = index.first(key); i !== -1; i = index.next[i]!) {
        if (matchOfTransaction[i] !== -1) continue;
        const tx = transactions[i]!;
        if (
          exact &&
          (tx.amount.currency !== payment.amount.currency ||
            !sameIban(tx.accountIban, payment.debtorIban) ||
            !sameIban(tx.counterpartyIban!, payment.creditorIban))
        )
          continue;
        const diff = abs(debitDifference(tx.amount.minor, payment.amount.minor));
        if (diff > config.amountToleranceMinor) continue;
        const days = Math.abs(dayNumbers.between(payment.requestedExecutionDate, tx.bookingDate));
        if (days > config.dateWindowDays) continue;
        if (days < bestDays || (days === bestDays && diff < bestDiff)) {
          chosen = i;
          bestDays = days;
          bestDiff = diff;
        }
      }
      if (chosen !== -1) record('amount-account-date', [p], chosen, payment.amount.minor);
    }
  }

  // Rule 3: a bulk sent with batch booking may be booked as one debit of the sum of its lines.
  // It matches only when every line that expects a booking is still unmatched, all lines share
  // account and currency, and a debit of exactly that sum was booked within the date window.
  // The index is keyed by the debited amount; account and currency are compared on the chain.
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
    const keyOf = (i: number): number => -amountKey(transactions[i]!.amount.minor);
    const index = new ChainIndex<number>(transactions.length);
    for (let i = 0; i < transactions.length; i++) if (isOpenDebit(i)) index.add(keyOf(i), i);
    index.link(keyOf);
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
      for (let i = index.first(amountKey(sum)); i !== -1; i = index.next[i]!) {
        if (matchOfTransaction[i] !== -1) continue;
        const tx = transactions[i]!;
        if (
          tx.amount.minor + sum !== 0n ||
          tx.amount.currency !== first.amount.currency ||
          !sameIban(tx.accountIban, first.debtorIban)
        )
          continue;
        const days = Math.abs(dayNumbers.between(first.requestedExecutionDate, tx.bookingDate));
        if (days <= config.dateWindowDays && days < bestDays) {
          chosen = i;
          bestDays = days;
        }
      }
      if (chosen !== -1) record('batch-lump-sum', lines, chosen, sum, 0n);
    }
  }
}

/** A booked debit (negative) as a positive amount, minus what was sent; 0n (a shared constant) when equal. */
function debitDifference(bookedMinor: bigint, sentMinor: bigint): bigint {
  return bookedMinor + sentMinor === 0n ? 0n : -bookedMinor - sentMinor;
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
