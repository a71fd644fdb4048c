// Where the matcher writes what it decided, and the small helpers its rules share. Split from
// match.ts so that each file holds one kind of thing: the rules there, the result here.
import type { LocalDate } from '../local-date.js';
import { MATCH_RULES, type MatchRule } from './config.js';
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
 * only what it decided — rule, transaction, payments — in parallel typed arrays, and
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

/** A rule as a number: its index in MATCH_RULES, one byte per match. */
export const RULE_END_TO_END = MATCH_RULES.indexOf('end-to-end');
export const RULE_AMOUNT_ACCOUNT_DATE = MATCH_RULES.indexOf('amount-account-date');
export const RULE_BATCH_LUMP_SUM = MATCH_RULES.indexOf('batch-lump-sum');

/**
 * The matches in typed arrays: no object, array or bigint per match (see MatchResult). While the
 * rules run, a match costs two writes, its number at its payment and at its transaction: the
 * rules add their matches one rule after another, so the rule of a match follows from where each
 * rule's run of matches starts, and match → transaction and match → payment are the inverse of
 * the two maps, built in one pass each when a match is first asked for. Only a lump sum's lines
 * (a few in a thousand matches) are kept apart.
 */
export class MatchTable implements MatchResult {
  count = 0;
  readonly matchOfPayment: Int32Array;
  readonly matchOfTransaction: Int32Array;
  /** The rule (an index into MATCH_RULES) of the matches from each start on, up to the next start. */
  private readonly ruleStarts: number[] = [];
  private readonly rules: number[] = [];
  /** The payments of the matches that have more than one, by match number. */
  private readonly linesOf = new Map<number, Int32Array>();
  /** match → transaction and match → (first) payment: built when first asked for. */
  private transactionOf: Int32Array | undefined;
  private paymentOf: Int32Array | undefined;

  constructor(
    private readonly payments: readonly SentPayment[],
    private readonly transactions: readonly BookedTransaction[],
    private readonly dayNumbers: DayNumbers,
  ) {
    this.matchOfPayment = new Int32Array(payments.length).fill(-1);
    this.matchOfTransaction = new Int32Array(transactions.length).fill(-1);
  }

  /** The matches added from now on are by this rule. */
  beginRule(rule: number): void {
    if (this.rules.at(-1) === rule) return;
    if (this.ruleStarts.at(-1) === this.count) {
      this.rules[this.rules.length - 1] = rule;
      return;
    }
    this.ruleStarts.push(this.count);
    this.rules.push(rule);
  }

  /** Records a match of one payment: the common case, with no array to pass. */
  addOne(payment: number, transaction: number): void {
    const k = this.count++;
    this.matchOfPayment[payment] = k;
    this.matchOfTransaction[transaction] = k;
  }

  addLines(payments: ArrayLike<number>, transaction: number): void {
    if (payments.length === 1) return this.addOne(payments[0]!, transaction);
    const k = this.count++;
    const lines = Int32Array.from(payments);
    for (let j = 0; j < lines.length; j++) this.matchOfPayment[lines[j]!] = k;
    this.linesOf.set(k, lines);
    this.matchOfTransaction[transaction] = k;
  }

  private ruleOf(k: number): number {
    let j = this.ruleStarts.length - 1;
    while (this.ruleStarts[j]! > k) j--;
    return this.rules[j]!;
  }

  /** Builds match → transaction and match → first payment, once the rules are done. */
  private inverse(): { transactionOf: Int32Array; paymentOf: Int32Array } {
    if (this.transactionOf === undefined || this.paymentOf === undefined || this.transactionOf.length !== this.count) {
      const transactionOf = new Int32Array(this.count);
      const paymentOf = new Int32Array(this.count);
      const { matchOfPayment, matchOfTransaction } = this;
      for (let i = 0; i < matchOfTransaction.length; i++) {
        const k = matchOfTransaction[i]!;
        if (k !== -1) transactionOf[k] = i;
      }
      // Backwards, so that a lump sum's first line, the lowest index, is written last.
      for (let p = matchOfPayment.length - 1; p >= 0; p--) {
        const k = matchOfPayment[p]!;
        if (k !== -1) paymentOf[k] = p;
      }
      this.transactionOf = transactionOf;
      this.paymentOf = paymentOf;
    }
    return { transactionOf: this.transactionOf, paymentOf: this.paymentOf };
  }

  private linesOfMatch(k: number, paymentOf: Int32Array): ArrayLike<number> {
    return this.linesOf.get(k) ?? [paymentOf[k]!];
  }

  match(k: number): Match {
    if (!Number.isInteger(k) || k < 0 || k >= this.count) throw new RangeError(`no match ${k} among ${this.count}`);
    const { transactionOf, paymentOf } = this.inverse();
    const transaction = transactionOf[k]!;
    const paymentIndexes = Array.from(this.linesOfMatch(k, paymentOf));
    const tx = this.transactions[transaction]!;
    const first = this.payments[paymentIndexes[0]!]!;
    let sentMinor = first.amount.minor;
    for (let j = 1; j < paymentIndexes.length; j++) sentMinor += this.payments[paymentIndexes[j]!]!.amount.minor;
    return {
      rule: MATCH_RULES[this.ruleOf(k)]!,
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
    if (this.count === 0) return kept;
    const { transactionOf, paymentOf } = this.inverse();
    for (let k = 0; k < this.count; k++) {
      if (!keep(k)) continue;
      kept.beginRule(this.ruleOf(k));
      kept.addLines(this.linesOfMatch(k, paymentOf), transactionOf[k]!);
    }
    return kept;
  }
}

/** A booked debit (negative) as a positive amount, minus what was sent; 0n (a shared constant) when equal. */
export function debitDifference(bookedMinor: bigint, sentMinor: bigint): bigint {
  return bookedMinor + sentMinor === 0n ? 0n : -bookedMinor - sentMinor;
}

/** Day differences with the day number of each distinct date computed once (there are few distinct dates, and many rows). */
export class DayNumbers {
  private readonly cache = new Map<string, number>();
  between(a: LocalDate, b: LocalDate): number {
    return this.of(b) - this.of(a);
  }
  /** The date's day number (days since 1970-01-01). */
  of(date: LocalDate): number {
    let n = this.cache.get(date);
    if (n === undefined) {
      n = Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
      this.cache.set(date, n);
    }
    return n;
  }
}
