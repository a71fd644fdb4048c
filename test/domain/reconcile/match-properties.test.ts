import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../../../src/domain/local-date.js';
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import {
  DEFAULT_RECONCILE_CONFIG,
  matchPayments,
  MATCH_RULES,
  reconcile,
  type MatchRule,
} from '../../../src/domain/reconcile/index.js';
import { CREDITOR, d, debit, nok, OTHER_CREDITOR, payment } from './builders.js';

// Small pools of ids, amounts and dates so that collisions (the interesting cases) are common.
const paymentArb = fc.record({
  e2e: fc.constantFrom('A', 'B', 'C', 'D'),
  minor: fc.bigInt({ min: 1n, max: 4n }),
  creditor: fc.constantFrom(CREDITOR, OTHER_CREDITOR),
  day: fc.integer({ min: 0, max: 6 }),
  bulk: fc.constantFrom('B1', 'B2', 'B3'),
  batch: fc.boolean(),
  outcome: fc.constantFrom('sent', 'sent', 'unknown', 'rejected' as const),
});
const txArb = fc.record({
  e2e: fc.option(fc.constantFrom('A', 'B', 'C', 'NOTPROVIDED'), { nil: undefined }),
  minor: fc.bigInt({ min: -2n, max: 9n }),
  creditor: fc.option(fc.constantFrom(CREDITOR, OTHER_CREDITOR), { nil: undefined }),
  day: fc.integer({ min: 0, max: 9 }),
});
const rulesArb = fc.shuffledSubarray<MatchRule>([...MATCH_RULES]);

describe('matching invariants (property-based)', () => {
  it('never matches a payment or a transaction twice, keeps every match within its rule, and is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(paymentArb, { maxLength: 25 }),
        fc.array(txArb, { maxLength: 25 }),
        rulesArb,
        (ps, ts, rules) => {
          const start = d('2026-03-02');
          const payments = ps.map((p, i) =>
            payment(`p${i}`, {
              endToEndId: p.e2e,
              amount: nok(p.minor * 100n),
              creditorIban: p.creditor,
              requestedExecutionDate: addDays(start, p.day),
              bulkId: p.bulk,
              batchBooking: p.batch,
              outcome: p.outcome,
            }),
          );
          const txs = ts.map((t, i) =>
            debit(`t${i}`, t.minor * 100n, {
              endToEndId: t.e2e,
              counterpartyIban: t.creditor,
              bookingDate: addDays(start, t.day),
            }),
          );
          const config = { ...DEFAULT_RECONCILE_CONFIG, rules };
          const result = matchPayments(payments, txs, config);

          const seenPayments = new Set<number>();
          const seenTxs = new Set<number>();
          for (const m of result.matches()) {
            expect(rules).toContain(m.rule);
            expect(seenTxs.has(m.transaction)).toBe(false);
            seenTxs.add(m.transaction);
            const tx = txs[m.transaction]!;
            expect(tx.amount.minor).toBeLessThan(0n);
            for (const p of m.payments) {
              expect(seenPayments.has(p)).toBe(false);
              seenPayments.add(p);
            }
            const first = payments[m.payments[0]!]!;
            const sum = m.payments.reduce((s, p) => s + payments[p]!.amount.minor, 0n);
            expect(m.amountDifferenceMinor).toBe(-tx.amount.minor - sum);
            if (m.rule === 'end-to-end') expect(tx.endToEndId).toBe(first.endToEndId);
            if (m.rule === 'amount-account-date') {
              expect(m.amountDifferenceMinor).toBe(0n);
              expect(tx.counterpartyIban).toBe(first.creditorIban);
              expect(Math.abs(daysBetween(first.requestedExecutionDate, tx.bookingDate))).toBeLessThanOrEqual(
                config.dateWindowDays,
              );
            }
            if (m.rule === 'batch-lump-sum') {
              expect(m.amountDifferenceMinor).toBe(0n);
              // Every line of the bulk that expects a booking is in the match.
              const lines = payments.flatMap((p, i) =>
                p.bulkId === first.bulkId && p.batchBooking && p.outcome !== 'rejected' ? [i] : [],
              );
              expect([...m.payments]).toEqual(lines);
            }
          }
          expect([...result.matchOfPayment].filter((m) => m !== -1)).toHaveLength(seenPayments.size);
          const again = matchPayments(payments, txs, config);
          expect(again.matches()).toEqual(result.matches());
          expect(again.matchOfPayment).toEqual(result.matchOfPayment);
          expect(again.matchOfTransaction).toEqual(result.matchOfTransaction);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives every payment (except cancelled and unbooked ones) and every unmatched debit exactly one finding', () => {
    fc.assert(
      fc.property(
        fc.array(paymentArb, { maxLength: 25 }),
        fc.array(txArb, { maxLength: 25 }),
        rulesArb,
        (ps, ts, rules) => {
          const start = d('2026-03-02');
          const payments = ps.map((p, i) =>
            payment(`p${i}`, {
              endToEndId: p.e2e,
              amount: nok(p.minor * 100n),
              creditorIban: p.creditor,
              requestedExecutionDate: addDays(start, p.day),
              bulkId: p.bulk,
              batchBooking: p.batch,
              outcome: p.outcome,
            }),
          );
          const txs = ts.map((t, i) =>
            debit(`t${i}`, t.minor * 100n, {
              endToEndId: t.e2e,
              counterpartyIban: t.creditor,
              bookingDate: addDays(start, t.day),
            }),
          );
          const result = reconcile(
            { payments, transactions: txs },
            { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
            { ...DEFAULT_RECONCILE_CONFIG, rules },
          );
          const paymentIds = result.findings.flatMap((f) => f.paymentIds);
          expect(new Set(paymentIds).size).toBe(paymentIds.length);
          expect(paymentIds.sort()).toEqual(payments.map((p) => p.id).sort());
          const matchedTx = new Set(result.matches.matches().map((m) => txs[m.transaction]!.id));
          const unexpected = result.findings.filter((f) => f.type === 'unexpected_debit').map((f) => f.transactionId);
          expect(unexpected).toEqual(txs.filter((t) => t.amount.minor < 0n && !matchedTx.has(t.id)).map((t) => t.id));
          expect(result.needsPerson).toBe(result.findings.some((f) => f.needsPerson));
          expect(result.summary.findings).toBe(result.findings.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
