// Matching of the payments settle sent against booked debit transactions. Every rule works
// through hash indexes, so matching is O(payments + transactions) expected; rules run in the
// configured order and each one only sees what earlier rules left unmatched, so no transaction
// and no payment is ever matched twice. Ties are broken by input order: the same input always
// gives the same matches.
import type { LocalDate } from '../local-date.js';
import { MATCH_RULES, type ReconcileConfig, type MatchRule } from './config.js';
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

/**
 * The matches of one run. A million matches kept as a million objects (each with an array of
 * payment indexes and a bigint) cost more time and memory than the matching itself: every one
 * survives the young generation, so the garbage collector copies it twice. So the matcher keeps
 * only what it decided — rule, transaction, payment lines — in parallel typed arrays, and
 * builds the `Match` object with its differences when someone asks for it (the report does, one
 * at a time; the differences follow from the inputs, so nothing is lost by not storing them).
 */
export interface MatchResult {
  /** How many matches, numbered 0 … count - 1 in rule order, then in payment input order. */
  readonly count: number;
  /** Match k as an object, built on demand. */
  match(k: number): Match;
  /** Every match as an object, in order: for small inputs (a statement's own debits, tests). */
  matches(): Match[];
  /** A result without the matches `keep` refuses; the others keep their order and are renumbered. */
  filter(keep: (k: number) => boolean): MatchResult;
  /** payment index → match number, or -1 when unmatched. */
  readonly matchOfPayment: Int32Array;
  /** transaction index → match number, or -1 when unmatched. */
  readonly matchOfTransaction: Int32Array;
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
 * walks the rows backwards to chain them in input order. Which rows were added is marked in
 * `next` itself (NOT_ADDED), so the index needs no second array.
 */
class ChainIndex<K extends string | number> {
  readonly head = new Map<K, number>();
  readonly next: Int32Array;
  private repeated = false;
  constructor(size: number) {
    this.next = new Int32Array(size).fill(NOT_ADDED);
  }
  /** Indexes must come in ascending order. */
  add(key: K, index: number): void {
    const size = this.head.size;
    this.head.set(key, index);
    if (this.head.size === size) this.repeated = true;
    this.next[index] = -1;
  }
  /** Call once after the last add(), with the key each added index was given. */
  link(keyOf: (index: number) => K): this {
    if (!this.repeated) return this;
    // Backwards, head holds the following index of the same key; the last one keeps next = -1.
    for (let index = this.next.length - 1; index >= 0; index--) {
      if (this.next[index] === NOT_ADDED) continue;
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

/** In ChainIndex.next: a row that is not in the index (never reached by walking a chain). */
const NOT_ADDED = -2;

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
  const dayNumbers = new DayNumbers();
  const table = new MatchTable(payments, transactions, dayNumbers);
  const { matchOfPayment, matchOfTransaction } = table;
  const isOpenDebit = (i: number): boolean => matchOfTransaction[i] === -1 && transactions[i]!.amount.minor < 0n;
  const expectsBooking = (p: SentPayment): boolean => p.outcome === 'sent' || p.outcome === 'unknown';

  for (const rule of config.rules) {
    if (rule === 'end-to-end') endToEnd();
    else if (rule === 'amount-account-date') amountAccountDate();
    else batchLumpSum();
  }
  return table;

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
          table.addOne(RULE_END_TO_END, p, i);
          chosen = -1;
          break;
        }
        if (chosen === -1) chosen = i;
      }
      if (chosen !== -1) table.addOne(RULE_END_TO_END, p, chosen);
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
      if (chosen !== -1) table.addOne(RULE_AMOUNT_ACCOUNT_DATE, p, chosen);
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
      if (chosen !== -1) table.addLines(RULE_BATCH_LUMP_SUM, lines, chosen);
    }
  }
}

/** A rule as a number: its index in MATCH_RULES, one byte per match. */
const RULE_END_TO_END = MATCH_RULES.indexOf('end-to-end');
const RULE_AMOUNT_ACCOUNT_DATE = MATCH_RULES.indexOf('amount-account-date');
const RULE_BATCH_LUMP_SUM = MATCH_RULES.indexOf('batch-lump-sum');

/** The matches as parallel typed arrays: no object, array or bigint per match (see MatchResult). */
class MatchTable implements MatchResult {
  count = 0;
  readonly matchOfPayment: Int32Array;
  readonly matchOfTransaction: Int32Array;
  /** Per match: its rule (an index into MATCH_RULES) and its transaction. */
  private readonly ruleOf: Uint8Array;
  private readonly transactionOf: Int32Array;
  /** Match k's payment indexes are lines[lineStart[k]] … lines[lineStart[k + 1] - 1]. */
  private readonly lineStart: Int32Array;
  private readonly lines: Int32Array;

  constructor(
    private readonly payments: readonly SentPayment[],
    private readonly transactions: readonly BookedTransaction[],
    private readonly dayNumbers: DayNumbers,
  ) {
    // Every match takes one transaction and at least one payment, so these sizes are never exceeded.
    const most = Math.min(payments.length, transactions.length);
    this.ruleOf = new Uint8Array(most);
    this.transactionOf = new Int32Array(most);
    this.lineStart = new Int32Array(most + 1);
    this.lines = new Int32Array(payments.length);
    this.matchOfPayment = new Int32Array(payments.length).fill(-1);
    this.matchOfTransaction = new Int32Array(transactions.length).fill(-1);
  }

  /** Records a match of one payment: the common case, with no array to pass. */
  addOne(rule: number, payment: number, transaction: number): void {
    const k = this.count++;
    const at = this.lineStart[k]!;
    this.lines[at] = payment;
    this.lineStart[k + 1] = at + 1;
    this.ruleOf[k] = rule;
    this.transactionOf[k] = transaction;
    this.matchOfPayment[payment] = k;
    this.matchOfTransaction[transaction] = k;
  }

  addLines(rule: number, payments: ArrayLike<number>, transaction: number): void {
    const k = this.count++;
    let at = this.lineStart[k]!;
    for (let j = 0; j < payments.length; j++) {
      const p = payments[j]!;
      this.lines[at++] = p;
      this.matchOfPayment[p] = k;
    }
    this.lineStart[k + 1] = at;
    this.ruleOf[k] = rule;
    this.transactionOf[k] = transaction;
    this.matchOfTransaction[transaction] = k;
  }

  match(k: number): Match {
    if (!Number.isInteger(k) || k < 0 || k >= this.count) throw new RangeError(`no match ${k} among ${this.count}`);
    const transaction = this.transactionOf[k]!;
    const paymentIndexes = Array.from(this.lines.subarray(this.lineStart[k], this.lineStart[k + 1]));
    const tx = this.transactions[transaction]!;
    const first = this.payments[paymentIndexes[0]!]!;
    let sentMinor = first.amount.minor;
    for (let j = 1; j < paymentIndexes.length; j++) sentMinor += this.payments[paymentIndexes[j]!]!.amount.minor;
    return {
      rule: MATCH_RULES[this.ruleOf[k]!]!,
      payments: paymentIndexes,
      transaction,
      // Every line of a match has the first one's currency (the lump-sum rule groups by it).
      amountDifferenceMinor:
        tx.amount.currency !== first.amount.currency ? undefined : debitDifference(tx.amount.minor, sentMinor),
      dateDifferenceDays: this.dayNumbers.between(first.requestedExecutionDate, tx.bookingDate),
    };
  }

  matches(): Match[] {
    return Array.from({ length: this.count }, (_, k) => this.match(k));
  }

  filter(keep: (k: number) => boolean): MatchResult {
    const kept = new MatchTable(this.payments, this.transactions, this.dayNumbers);
    for (let k = 0; k < this.count; k++)
      if (keep(k))
        kept.addLines(
          this.ruleOf[k]!,
          this.lines.subarray(this.lineStart[k], this.lineStart[k + 1]),
          this.transactionOf[k]!,
        );
    return kept;
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
