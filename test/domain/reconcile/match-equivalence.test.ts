// The indexed matcher must give exactly the matches of the rules as written in
// docs/reconciliation.md. This file states them a second time in the plainest way — every rule
// scans every transaction for every payment (quadratic, fine for a few dozen rows) — and checks
// that both agree on random inputs full of the cases indexes get wrong: repeated ids, look-alike
// IBANs in paper format, other currencies, amounts beyond 2^53, tolerances and rule orders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../../src/domain/local-date.js';
import {
  DEFAULT_RECONCILE_CONFIG,
  hasEndToEndId,
  matchPayments,
  MATCH_RULES,
  type BookedTransaction,
  type Match,
  type MatchRule,
  type ReconcileConfig,
  type SentPayment,
} from '../../../src/domain/reconcile/index.js';
import { CREDITOR, d, DEBTOR, debit, OTHER_CREDITOR, payment } from './builders.js';
import { generate } from '../../../bench/reconcile.js';

type Config = Pick<
  ReconcileConfig,
  'rules' | 'dateWindowDays' | 'amountToleranceMinor' | 'amountRuleOnlyWithoutEndToEnd'
>;

const electronic = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();
const expectsBooking = (p: SentPayment): boolean => p.outcome === 'sent' || p.outcome === 'unknown';
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

function plainMatch(payments: readonly SentPayment[], txs: readonly BookedTransaction[], config: Config): Match[] {
  const matches: Match[] = [];
  const paymentMatched = new Set<number>();
  const txMatched = new Set<number>();
  const openDebits = (): number[] => txs.flatMap((t, i) => (!txMatched.has(i) && t.amount.minor < 0n ? [i] : []));
  const record = (rule: MatchRule, lines: number[], i: number, sent: bigint): void => {
    const tx = txs[i]!;
    const first = payments[lines[0]!]!;
    matches.push({
      rule,
      payments: lines,
      transaction: i,
      amountDifferenceMinor: tx.amount.currency === first.amount.currency ? -tx.amount.minor - sent : undefined,
      dateDifferenceDays: daysBetween(first.requestedExecutionDate, tx.bookingDate),
    });
    lines.forEach((p) => paymentMatched.add(p));
    txMatched.add(i);
  };
  for (const rule of config.rules) {
    if (rule === 'end-to-end') {
      payments.forEach((p, pi) => {
        if (paymentMatched.has(pi)) return;
        const candidates = openDebits().filter(
          (i) =>
            txs[i]!.endToEndId === p.endToEndId &&
            hasEndToEndId(p.endToEndId) &&
            electronic(txs[i]!.accountIban) === electronic(p.debtorIban),
        );
        const exact = candidates.find(
          (i) => txs[i]!.amount.currency === p.amount.currency && -txs[i]!.amount.minor === p.amount.minor,
        );
        const chosen = exact ?? candidates[0];
        if (chosen !== undefined) record(rule, [pi], chosen, p.amount.minor);
      });
    } else if (rule === 'amount-account-date') {
      payments.forEach((p, pi) => {
        if (paymentMatched.has(pi) || !expectsBooking(p)) return;
        let best: { i: number; days: number; diff: bigint } | undefined;
        for (const i of openDebits()) {
          const t = txs[i]!;
          if (t.counterpartyIban === undefined) continue;
          if (config.amountRuleOnlyWithoutEndToEnd && hasEndToEndId(t.endToEndId)) continue;
          if (electronic(t.accountIban) !== electronic(p.debtorIban)) continue;
          if (electronic(t.counterpartyIban) !== electronic(p.creditorIban)) continue;
          if (t.amount.currency !== p.amount.currency) continue;
          const diff = abs(-t.amount.minor - p.amount.minor);
          const days = Math.abs(daysBetween(p.requestedExecutionDate, t.bookingDate));
          if (diff > config.amountToleranceMinor || days > config.dateWindowDays) continue;
          if (!best || days < best.days || (days === best.days && diff < best.diff)) best = { i, days, diff };
        }
        if (best) record(rule, [pi], best.i, p.amount.minor);
      });
    } else {
      const bulkIds = [...new Set(payments.filter((p) => p.batchBooking && expectsBooking(p)).map((p) => p.bulkId))];
      for (const bulkId of bulkIds) {
        const lines = payments.flatMap((p, i) =>
          p.bulkId === bulkId && p.batchBooking && expectsBooking(p) ? [i] : [],
        );
        const first = payments[lines[0]!]!;
        const consistent = lines.every(
          (i) =>
            !paymentMatched.has(i) &&
            payments[i]!.amount.currency === first.amount.currency &&
            electronic(payments[i]!.debtorIban) === electronic(first.debtorIban),
        );
        if (!consistent) continue;
        const sum = lines.reduce((s, i) => s + payments[i]!.amount.minor, 0n);
        let best: { i: number; days: number } | undefined;
        for (const i of openDebits()) {
          const t = txs[i]!;
          if (-t.amount.minor !== sum || t.amount.currency !== first.amount.currency) continue;
          if (electronic(t.accountIban) !== electronic(first.debtorIban)) continue;
          const days = Math.abs(daysBetween(first.requestedExecutionDate, t.bookingDate));
          if (days <= config.dateWindowDays && (!best || days < best.days)) best = { i, days };
        }
        if (best) record(rule, lines, best.i, sum);
      }
    }
  }
  return matches;
}

/** The index of each payment's (and transaction's) match, as the indexed matcher reports it. */
function matchIndexes(matches: readonly Match[], payments: number, txs: number): [number[], number[]] {
  const ofPayment = new Array<number>(payments).fill(-1);
  const ofTx = new Array<number>(txs).fill(-1);
  matches.forEach((m, k) => {
    m.payments.forEach((p) => (ofPayment[p] = k));
    ofTx[m.transaction] = k;
  });
  return [ofPayment, ofTx];
}

function expectSameAsPlain(payments: SentPayment[], txs: BookedTransaction[], config: Config): void {
  const result = matchPayments(payments, txs, config);
  const plain = plainMatch(payments, txs, config);
  expect(result.matches().map((m) => ({ ...m, payments: [...m.payments] }))).toEqual(plain);
  const [ofPayment, ofTx] = matchIndexes(plain, payments.length, txs.length);
  expect([...result.matchOfPayment]).toEqual(ofPayment);
  expect([...result.matchOfTransaction]).toEqual(ofTx);
}

// Amounts from a small pool so that equal amounts are common, and two beyond 2^53 that one
// floating-point number cannot tell apart.
const HUGE = 2n ** 60n;
const amountArb = fc.constantFrom(100n, 200n, 300n, 400n, 700n, HUGE, HUGE + 1n);
const ibanArb = fc.constantFrom(DEBTOR, 'no93 8601 1117 947', 'NO9386011117948');
const creditorArb = fc.constantFrom(CREDITOR, OTHER_CREDITOR, 'NO83 3000 1234 567');
const paymentArb = fc.record({
  e2e: fc.constantFrom('A', 'B', 'C', 'NOTPROVIDED'),
  minor: amountArb,
  currency: fc.constantFrom('NOK', 'NOK', 'NOK', 'EUR'),
  debtor: ibanArb,
  creditor: creditorArb,
  day: fc.integer({ min: 0, max: 6 }),
  bulk: fc.constantFrom('B1', 'B2', 'B3'),
  batch: fc.boolean(),
  outcome: fc.constantFrom('sent', 'sent', 'unknown', 'rejected', 'cancelled' as const),
});
const txArb = fc.record({
  e2e: fc.option(fc.constantFrom('A', 'B', 'C', 'NOTPROVIDED', ''), { nil: undefined }),
  // Debits of single amounts and of sums of two or three (lump sums), and a few credits.
  minor: fc.oneof(
    amountArb,
    amountArb.map((a) => 2n * a),
    fc.constantFrom(600n, 900n, 1000n),
    fc.constantFrom(-300n),
  ),
  currency: fc.constantFrom('NOK', 'NOK', 'NOK', 'EUR'),
  account: ibanArb,
  creditor: fc.option(creditorArb, { nil: undefined }),
  day: fc.integer({ min: 0, max: 9 }),
});
const configArb = fc.record({
  rules: fc.shuffledSubarray<MatchRule>([...MATCH_RULES]),
  dateWindowDays: fc.integer({ min: 0, max: 4 }),
  amountToleranceMinor: fc.constantFrom(0n, 0n, 100n),
  amountRuleOnlyWithoutEndToEnd: fc.boolean(),
});

describe('the indexed matcher gives the same matches as the rules applied one by one', () => {
  it('on random inputs full of collisions', () => {
    fc.assert(
      fc.property(
        fc.array(paymentArb, { maxLength: 30 }),
        fc.array(txArb, { maxLength: 30 }),
        configArb,
        (ps, ts, config) => {
          const start = d('2026-03-02');
          const payments = ps.map((p, i) =>
            payment(`p${i}`, {
              endToEndId: p.e2e,
              amount: { minor: p.minor, currency: p.currency },
              debtorIban: p.debtor,
              creditorIban: p.creditor,
              requestedExecutionDate: addDays(start, p.day),
              bulkId: p.bulk,
              batchBooking: p.batch,
              outcome: p.outcome,
            }),
          );
          const txs = ts.map((t, i) =>
            debit(`t${i}`, t.minor, {
              amount: { minor: -t.minor, currency: t.currency },
              accountIban: t.account,
              endToEndId: t.e2e,
              counterpartyIban: t.creditor,
              bookingDate: addDays(start, t.day),
            }),
          );
          expectSameAsPlain(payments, txs, config);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('on the benchmark data mix', () => {
    const { payments, transactions } = generate(2_000);
    expectSameAsPlain(payments, transactions, DEFAULT_RECONCILE_CONFIG);
  });
});
