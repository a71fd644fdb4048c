// Matching of the payments settle sent against booked debit transactions. Every rule works
// through hash indexes, so matching is O(payments + transactions) expected; rules run in the
// configured order and each one only sees what earlier rules left unmatched, so no transaction
// and no payment is ever matched twice. Ties are broken by input order: the same input always
// gives the same matches.
import type { ReconcileConfig } from './config.js';
import type { BookedTransaction, SentPayment } from './inputs.js';
import {
  DayNumbers,
  debitDifference,
  MatchTable,
  RULE_AMOUNT_ACCOUNT_DATE,
  RULE_BATCH_LUMP_SUM,
  RULE_END_TO_END,
  type MatchResult,
} from './match-table.js';

export type { Match, MatchResult } from './match-table.js';

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
 * Hash chains over a Map in input order: first(key) is the first index, after(i) the following
 * one (-1 = end). A tolerant amount rule keys it by the accounts and currency.
 *
 * Building costs one Map.set per row when keys are unique:
 * add() lets a later index overwrite an earlier one, and link() — only when some key repeated,
 * that is when the map holds fewer keys than were added — walks the rows backwards to chain them
 * in input order, in an array made only then.
 */
class ChainIndex<K> {
  private readonly head = new Map<K, number>();
  private next: Int32Array | undefined;
  private added = 0;
  /** Indexes must come in ascending order. */
  add(key: K, index: number): void {
    this.head.set(key, index);
    this.added++;
  }
  /** Call once after the last add(): `keyOf` gives each added index's key, undefined for the others. */
  link(count: number, keyOf: (index: number) => K | undefined): this {
    if (this.head.size === this.added) return this;
    const next = (this.next = new Int32Array(count).fill(-1));
    // Backwards, head holds the following index of the same key; the last one keeps -1.
    for (let index = count - 1; index >= 0; index--) {
      const key = keyOf(index);
      if (key === undefined) continue;
      const following = this.head.get(key)!;
      if (following !== index) {
        next[index] = following;
        this.head.set(key, index);
      }
    }
    return this;
  }
  get size(): number {
    return this.head.size;
  }
  first(key: K): number {
    return this.head.get(key) ?? -1;
  }
  after(index: number): number {
    return this.next === undefined ? -1 : this.next[index]!;
  }
}

/**
 * The open debits chained by the amount debited, in typed arrays: a bucket per hash of the amount
 * (a power of two, at least twice the rows), the rows of a bucket chained newest first. It is
 * built once, when the first amount rule runs, over the debits still open then; a later rule
 * skips what was matched meanwhile, as it walks. Amounts that share a bucket only lengthen a
 * chain, because every rule compares the exact amounts of the rows it walks. Walking newest
 * first, a rule keeps the last of equally good rows it meets: the first in input order.
 */
class AmountBuckets {
  readonly rows: Int32Array;
  readonly next: Int32Array;
  private readonly head: Int32Array;
  private readonly shift: number;

  constructor(transactions: readonly BookedTransaction[], matchOfTransaction: Int32Array, open: number) {
    let bits = 4;
    while (1 << bits < 2 * open) bits++;
    this.shift = 32 - bits;
    this.head = new Int32Array(1 << bits).fill(-1);
    this.rows = new Int32Array(open);
    this.next = new Int32Array(open);
    let used = 0;
    for (let i = 0; i < transactions.length; i++) {
      if (matchOfTransaction[i] !== -1) continue;
      const minor = transactions[i]!.amount.minor;
      if (minor >= 0n) continue;
      const bucket = this.bucket(-Number(minor));
      this.rows[used] = i;
      this.next[used] = this.head[bucket]!;
      this.head[bucket] = used++;
    }
  }

  /** The first entry (an index into rows and next) of the bucket of a debited amount, -1 when empty. */
  first(amount: number): number {
    return this.head[this.bucket(amount)]!;
  }

  /** A multiplicative hash of both 32-bit halves: amounts in minor units often pass 2^32. */
  private bucket(amount: number): number {
    const low = amount | 0;
    const high = (amount / 4_294_967_296) | 0;
    return Math.imul(low ^ Math.imul(high, 0x27d4eb2d), 0x9e3779b1) >>> this.shift;
  }
}

/**
 * What the rules of one matchPayments() call read and write. The rules are functions of the
 * module, not closures made per call: a closure made anew each call is a new call target for the
 * optimised code of its callers (which then deoptimises), and a rule whose loops run once per call
 * is compiled again on every call. Each hot loop sits in a function of its own, so its optimised
 * code is reused from one call to the next (0009 measured this).
 */
interface Run {
  readonly payments: readonly SentPayment[];
  readonly transactions: readonly BookedTransaction[];
  readonly config: MatchConfig;
  readonly dayNumbers: DayNumbers;
  readonly table: MatchTable;
  /** The amount rules' index, built when the first of them needs it. */
  buckets: AmountBuckets | undefined;
}

export function matchPayments(
  payments: readonly SentPayment[],
  transactions: readonly BookedTransaction[],
  config: MatchConfig,
): MatchResult {
  const dayNumbers = new DayNumbers();
  const run: Run = {
    payments,
    transactions,
    config,
    dayNumbers,
    table: new MatchTable(payments, transactions, dayNumbers),
    buckets: undefined,
  };
  for (const rule of config.rules) {
    if (rule === 'end-to-end') endToEnd(run, new EndToEndIndex(transactions));
    else if (rule === 'amount-account-date') {
      if (config.amountToleranceMinor === 0n) amountAccountDate(run);
      else amountAccountDateTolerant(run);
    } else batchLumpSum(run, batchBulks(payments));
  }
  return run.table;
}

/** Built when first needed, over the debits open then: every transaction less the matched ones. */
function amountBuckets(run: Run): AmountBuckets {
  const { transactions, table } = run;
  return (run.buckets ??= new AmountBuckets(transactions, table.matchOfTransaction, transactions.length - table.count));
}

/** FNV-1a over the UTF-16 code units, then murmur3's finaliser, so that the low bits are well mixed. */
function hashOfId(id: string): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < id.length; j++) h = Math.imul(h ^ id.charCodeAt(j), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * The end-to-end index: every transaction with an id, as a hash join's would hold; whether it is
 * an open debit on the payment's account is checked on the (nearly always one-row) chain, which
 * costs less than reading every transaction's amount to leave the credits out.
 *
 * Open addressing in two typed arrays (at most half full, linear probing): each slot holds a
 * transaction and its id's hash. Building costs a hash of the id and a probe per row, no `Map`
 * (whose entries and rehashing as it grows were the larger part of a join's work). Rows come in
 * input order and nothing is removed, so the rows of a repeated id lie along its probe sequence in
 * input order: first() gives the first, after() the next.
 */
class EndToEndIndex {
  private readonly rows: Int32Array;
  private readonly hashes: Int32Array;
  private readonly mask: number;

  constructor(private readonly transactions: readonly BookedTransaction[]) {
    let bits = 4;
    while (1 << bits < 2 * transactions.length) bits++;
    const mask = (this.mask = (1 << bits) - 1);
    const rows = (this.rows = new Int32Array(1 << bits).fill(-1));
    const hashes = (this.hashes = new Int32Array(1 << bits));
    for (let i = 0; i < transactions.length; i++) {
      const id = transactions[i]!.endToEndId;
      if (!hasEndToEndId(id)) continue;
      const h = hashOfId(id);
      let slot = h & mask;
      while (rows[slot] !== -1) slot = (slot + 1) & mask;
      rows[slot] = i;
      hashes[slot] = h;
    }
  }

  /** The slot of the first transaction (in input order) with this id; -1 when there is none. */
  first(id: string): number {
    const h = hashOfId(id);
    return this.from(id, h, h & this.mask);
  }

  /** The slot of the next transaction with the same id after the one in `slot`; -1 at the end. */
  after(id: string, slot: number): number {
    return this.from(id, this.hashes[slot]!, (slot + 1) & this.mask);
  }

  /** The transaction in a slot first() or after() gave. */
  row(slot: number): number {
    return this.rows[slot]!;
  }

  private from(id: string, h: number, slot: number): number {
    const { rows, hashes, mask, transactions } = this;
    for (; ; slot = (slot + 1) & mask) {
      const row = rows[slot]!;
      if (row === -1) return -1;
      if (hashes[slot] === h && transactions[row]!.endToEndId === id) return slot;
    }
  }
}

// Rule 1: the end-to-end id the bank reports equals the one settle sent, on the debtor account.
// Rejected and cancelled payments take part too: a booking for one of them must come to light.
function endToEnd(run: Run, index: EndToEndIndex): void {
  const { payments, transactions, table } = run;
  const { matchOfPayment, matchOfTransaction } = table;
  table.beginRule(RULE_END_TO_END);
  for (let p = 0; p < payments.length; p++) {
    if (matchOfPayment[p] !== -1) continue;
    const payment = payments[p]!;
    const id = payment.endToEndId;
    let chosen = -1;
    // Prefer the first open debit with the exact amount (a rebooking can repeat an id), else the first open one.
    for (let slot = index.first(id); slot !== -1; slot = index.after(id, slot)) {
      const i = index.row(slot);
      if (matchOfTransaction[i] !== -1) continue;
      const tx = transactions[i]!;
      if (tx.amount.minor >= 0n || !sameIban(tx.accountIban, payment.debtorIban)) continue;
      if (tx.amount.currency === payment.amount.currency && tx.amount.minor + payment.amount.minor === 0n) {
        table.addOne(p, i);
        chosen = -1;
        break;
      }
      if (chosen === -1) chosen = i;
    }
    if (chosen !== -1) table.addOne(p, chosen);
  }
}

/** Whether the amount rule may look at a transaction beyond its amount: a counterparty, and no end-to-end id if so configured. */
function amountRuleMayUse(config: MatchConfig, tx: BookedTransaction): boolean {
  return tx.counterpartyIban !== undefined && !(config.amountRuleOnlyWithoutEndToEnd && hasEndToEndId(tx.endToEndId));
}

function expectsBooking(p: SentPayment): boolean {
  return p.outcome === 'sent' || p.outcome === 'unknown';
}

// Rule 2: same debtor account, creditor account, currency and amount, booked within the date
// window. The closest date wins, then input order. With no tolerance (the default) the amount
// must be exact, so the rule walks the amount's bucket and compares the rest on the chain.
function amountAccountDate(run: Run): void {
  const { payments, table } = run;
  const { matchOfPayment } = table;
  amountBuckets(run);
  table.beginRule(RULE_AMOUNT_ACCOUNT_DATE);
  for (let p = 0; p < payments.length; p++) {
    if (matchOfPayment[p] !== -1) continue;
    const payment = payments[p]!;
    if (!expectsBooking(payment)) continue;
    const chosen = closestOpenDebit(run, payment.amount.minor, payment, payment.creditorIban);
    if (chosen !== -1) table.addOne(p, chosen);
  }
}

/**
 * Both exact amount rules' walk: the open debit of exactly `sent` in the payment's currency on its
 * debtor account, booked closest to its requested execution date within the date window, the
 * first in input order of equally close ones; -1 when there is none. With a creditor account (the
 * amount rule), the debit must also be one the amount rule may use, to that counterparty; a lump
 * sum passes none, and its first line as the payment.
 */
function closestOpenDebit(run: Run, sent: bigint, payment: SentPayment, creditorIban: string | undefined): number {
  const { transactions, table, config, dayNumbers } = run;
  const { matchOfTransaction } = table;
  const window = config.dateWindowDays;
  const { rows, next } = run.buckets!;
  const { currency } = payment.amount;
  const { debtorIban } = payment;
  const day = dayNumbers.of(payment.requestedExecutionDate);
  let chosen = -1;
  let bestDays = Infinity;
  for (let e = run.buckets!.first(Number(sent)); e !== -1; e = next[e]!) {
    const i = rows[e]!;
    if (matchOfTransaction[i] !== -1) continue;
    const tx = transactions[i]!;
    if (tx.amount.minor + sent !== 0n || tx.amount.currency !== currency || !sameIban(tx.accountIban, debtorIban))
      continue;
    if (creditorIban !== undefined && (!amountRuleMayUse(config, tx) || !sameIban(tx.counterpartyIban!, creditorIban)))
      continue;
    const days = Math.abs(dayNumbers.of(tx.bookingDate) - day);
    if (days <= window && days <= bestDays) {
      chosen = i;
      bestDays = days;
    }
  }
  return chosen;
}

function accountsKey(account: string, counterparty: string, currency: string): string {
  return ibanKey(account) + SEP + ibanKey(counterparty) + SEP + currency;
}

/** The key of an open debit the tolerant amount rule may use, undefined for the others. */
function tolerantKeyOf(run: Run, i: number): string | undefined {
  const tx = run.transactions[i]!;
  if (run.table.matchOfTransaction[i] !== -1 || tx.amount.minor >= 0n || !amountRuleMayUse(run.config, tx))
    return undefined;
  return accountsKey(tx.accountIban, tx.counterpartyIban!, tx.amount.currency);
}

// Rule 2 with an amount tolerance: the index is keyed by the accounts and currency, the amount
// compared on the chain. The closest date wins, then the smallest difference, then input order.
function amountAccountDateTolerant(run: Run): void {
  const { payments, transactions, table, config, dayNumbers } = run;
  const { matchOfPayment, matchOfTransaction } = table;
  const window = config.dateWindowDays;
  const index = new ChainIndex<string>();
  for (let i = 0; i < transactions.length; i++) {
    const key = tolerantKeyOf(run, i);
    if (key !== undefined) index.add(key, i);
  }
  index.link(transactions.length, (i) => tolerantKeyOf(run, i));
  if (index.size === 0) return;
  table.beginRule(RULE_AMOUNT_ACCOUNT_DATE);
  for (let p = 0; p < payments.length; p++) {
    const payment = payments[p]!;
    if (matchOfPayment[p] !== -1 || !expectsBooking(payment)) continue;
    let chosen = -1;
    let bestDays = Infinity;
    let bestDiff = 0n;
    const key = accountsKey(payment.debtorIban, payment.creditorIban, payment.amount.currency);
    for (let i = index.first(key); i !== -1; i = index.after(i)) {
      if (matchOfTransaction[i] !== -1) continue;
      const tx = transactions[i]!;
      const diff = abs(debitDifference(tx.amount.minor, payment.amount.minor));
      if (diff > config.amountToleranceMinor) continue;
      const days = Math.abs(dayNumbers.between(payment.requestedExecutionDate, tx.bookingDate));
      if (days > window) continue;
      if (days < bestDays || (days === bestDays && diff < bestDiff)) {
        chosen = i;
        bestDays = days;
        bestDiff = diff;
      }
    }
    if (chosen !== -1) table.addOne(p, chosen);
  }
}

/** The payments that expect a booking of each bulk sent with batch booking, by bulk id, in input order. */
function batchBulks(payments: readonly SentPayment[]): Map<string, number[]> {
  const bulks = new Map<string, number[]>();
  for (let p = 0; p < payments.length; p++) {
    const payment = payments[p]!;
    if (!payment.batchBooking || !expectsBooking(payment)) continue;
    const ofBulk = bulks.get(payment.bulkId);
    if (ofBulk) ofBulk.push(p);
    else bulks.set(payment.bulkId, [p]);
  }
  return bulks;
}

// Rule 3: a bulk sent with batch booking may be booked as one debit of the sum of its payments.
// It matches only when every payment that expects a booking is still unmatched, all payments share
// account and currency, and a debit of exactly that sum was booked within the date window.
// The closest date wins, then input order.
function batchLumpSum(run: Run, bulks: Map<string, number[]>): void {
  if (bulks.size === 0) return;
  const { payments, table } = run;
  const { matchOfPayment } = table;
  amountBuckets(run);
  table.beginRule(RULE_BATCH_LUMP_SUM);
  for (const ofBulk of bulks.values()) {
    const first = payments[ofBulk[0]!]!;
    let sum = 0n;
    let consistent = true;
    for (const p of ofBulk) {
      const payment = payments[p]!;
      if (
        matchOfPayment[p] !== -1 ||
        payment.amount.currency !== first.amount.currency ||
        !sameIban(payment.debtorIban, first.debtorIban)
      ) {
        consistent = false;
        break;
      }
      sum += payment.amount.minor;
    }
    if (!consistent) continue;
    const chosen = closestOpenDebit(run, sum, first, undefined);
    if (chosen !== -1) table.addLines(ofBulk, chosen);
  }
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}
