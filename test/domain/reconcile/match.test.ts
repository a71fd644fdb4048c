import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RECONCILE_CONFIG,
  matchPayments,
  resolveReconcileConfig,
  type Match,
} from '../../../src/domain/reconcile/index.js';
import { CREDITOR, d, debit, nok, OTHER_CREDITOR, payment } from './builders.js';

const config = DEFAULT_RECONCILE_CONFIG;
const pairs = (matches: readonly Match[]): [string, number[], number][] =>
  matches.map((m) => [m.rule, [...m.payments], m.transaction]);

describe('matching by end-to-end id', () => {
  it('matches a payment to the debit on its account with the same end-to-end id and records the rule', () => {
    const result = matchPayments(
      [payment('p1')],
      [debit('t0', 10_000n, { endToEndId: 'other' }), debit('t1', 10_000n, { endToEndId: 'E2E-p1' })],
      config,
    );
    expect(pairs(result.matches())).toEqual([['end-to-end', [0], 1]]);
    expect(result.matches()[0]!.amountDifferenceMinor).toBe(0n);
    expect([...result.matchOfPayment]).toEqual([0]);
    expect([...result.matchOfTransaction]).toEqual([-1, 0]);
  });

  it('does not match the same end-to-end id booked on another account', () => {
    const result = matchPayments(
      [payment('p1')],
      [debit('t1', 10_000n, { endToEndId: 'E2E-p1', accountIban: 'NO0215030000000' })],
      { ...config, rules: ['end-to-end'] },
    );
    expect(result.matches()).toEqual([]);
  });

  it('still matches by id when the amount differs, and says by how much', () => {
    const result = matchPayments(
      [payment('p1')],
      [debit('t1', 10_250n, { endToEndId: 'E2E-p1', bookingDate: d('2026-03-12') })],
      config,
    );
    expect(result.matches()[0]).toMatchObject({
      rule: 'end-to-end',
      amountDifferenceMinor: 250n,
      dateDifferenceDays: 2,
    });
  });

  it('prefers the booking with the exact amount when an id was booked twice, and never uses one booking for two payments', () => {
    const payments = [payment('p1'), payment('p2', { endToEndId: 'E2E-p1' })];
    const txs = [debit('t1', 9_999n, { endToEndId: 'E2E-p1' }), debit('t2', 10_000n, { endToEndId: 'E2E-p1' })];
    const result = matchPayments(payments, txs, config);
    expect(pairs(result.matches())).toEqual([
      ['end-to-end', [0], 1],
      ['end-to-end', [1], 0],
    ]);
  });

  it('ignores credits and "NOTPROVIDED" ids', () => {
    const result = matchPayments(
      [payment('p1', { endToEndId: 'NOTPROVIDED' }), payment('p2')],
      [
        debit('t1', 10_000n, { endToEndId: 'NOTPROVIDED', counterpartyIban: OTHER_CREDITOR }),
        { ...debit('t2', 0n, { endToEndId: 'E2E-p2' }), amount: nok(10_000n) },
      ],
      config,
    );
    expect(result.matches()).toEqual([]);
  });
});

describe('matching by amount, creditor account and date window', () => {
  it('matches a booking without end-to-end id to the same amount and creditor within the window, closest date first', () => {
    const txs = [
      debit('far', 10_000n, { counterpartyIban: CREDITOR, bookingDate: d('2026-03-13') }),
      debit('near', 10_000n, { counterpartyIban: CREDITOR, bookingDate: d('2026-03-11') }),
    ];
    const result = matchPayments([payment('p1')], txs, config);
    expect(pairs(result.matches())).toEqual([['amount-account-date', [0], 1]]);
    expect(result.matches()[0]!.dateDifferenceDays).toBe(1);
  });

  it('does not match outside the date window, with another creditor, or with a different amount at tolerance 0', () => {
    const txs = [
      debit('late', 10_000n, { counterpartyIban: CREDITOR, bookingDate: d('2026-03-14') }),
      debit('other', 10_000n, { counterpartyIban: OTHER_CREDITOR }),
      debit('cents', 10_001n, { counterpartyIban: CREDITOR }),
    ];
    expect(matchPayments([payment('p1')], txs, config).matches()).toEqual([]);
  });

  it('accepts an amount difference up to the configured tolerance and reports it', () => {
    const tolerant = resolveReconcileConfig({ amountToleranceMinor: 5n });
    const txs = [
      debit('t6', 10_006n, { counterpartyIban: CREDITOR }),
      debit('t5', 9_995n, { counterpartyIban: CREDITOR }),
    ];
    const result = matchPayments([payment('p1')], txs, tolerant);
    expect(pairs(result.matches())).toEqual([['amount-account-date', [0], 1]]);
    expect(result.matches()[0]!.amountDifferenceMinor).toBe(-5n);
  });

  it('leaves bookings that carry another end-to-end id alone unless configured otherwise', () => {
    const txs = [debit('t1', 10_000n, { counterpartyIban: CREDITOR, endToEndId: 'SOMEONE-ELSE' })];
    expect(matchPayments([payment('p1')], txs, config).matches()).toEqual([]);
    expect(
      matchPayments([payment('p1')], txs, { ...config, amountRuleOnlyWithoutEndToEnd: false }).matches(),
    ).toHaveLength(1);
  });

  it('does not match rejected payments by amount (they are not expected to book)', () => {
    const txs = [debit('t1', 10_000n, { counterpartyIban: CREDITOR })];
    expect(matchPayments([payment('p1', { outcome: 'rejected' })], txs, config).matches()).toEqual([]);
  });
});

describe('matching batch-booked lump sums', () => {
  const bulk = [
    payment('l1', { bulkId: 'BULK', batchBooking: true, amount: nok(1_000n) }),
    payment('l2', { bulkId: 'BULK', batchBooking: true, amount: nok(2_500n) }),
    payment('l3', { bulkId: 'BULK', batchBooking: true, amount: nok(700n), outcome: 'rejected' }),
  ];

  it('matches one debit of the sum of the lines that went through to the whole bulk', () => {
    const result = matchPayments(bulk, [debit('lump', 3_500n, { bookingDate: d('2026-03-11') })], config);
    expect(pairs(result.matches())).toEqual([['batch-lump-sum', [0, 1], 0]]);
    expect(result.matches()[0]!.amountDifferenceMinor).toBe(0n);
  });

  it('does not match when batch booking was not asked for', () => {
    const unbatched = bulk.map((p) => ({ ...p, batchBooking: false }));
    expect(matchPayments(unbatched, [debit('lump', 3_500n)], config).matches()).toEqual([]);
  });

  it('does not match a debit that covers only part of the bulk', () => {
    expect(matchPayments(bulk, [debit('lump', 3_400n)], config).matches()).toEqual([]);
  });

  it('does not match the lump sum when a line of the bulk was already booked on its own', () => {
    const txs = [debit('single', 1_000n, { endToEndId: 'E2E-l1' }), debit('lump', 3_500n)];
    const result = matchPayments(bulk, txs, config);
    expect(pairs(result.matches())).toEqual([['end-to-end', [0], 0]]);
  });
});

describe('rule configuration and determinism', () => {
  it('runs only the enabled rules, in the configured order', () => {
    const payments = [payment('p1')];
    const txs = [
      debit('byAmount', 10_000n, { counterpartyIban: CREDITOR }),
      debit('byId', 10_000n, { endToEndId: 'E2E-p1' }),
    ];
    expect(pairs(matchPayments(payments, txs, config).matches())).toEqual([['end-to-end', [0], 1]]);
    expect(
      pairs(matchPayments(payments, txs, { ...config, rules: ['amount-account-date', 'end-to-end'] }).matches()),
    ).toEqual([['amount-account-date', [0], 0]]);
    expect(matchPayments(payments, txs, { ...config, rules: [] }).matches()).toEqual([]);
  });

  it('gives the same matches for the same input', () => {
    const payments = Array.from({ length: 50 }, (_, i) =>
      payment(`p${i}`, { amount: nok(BigInt(100 + (i % 5))), endToEndId: i % 3 === 0 ? `E2E-p${i}` : `X${i}` }),
    );
    const txs = Array.from({ length: 60 }, (_, i) =>
      debit(`t${i}`, BigInt(100 + (i % 5)), {
        endToEndId: i % 4 === 0 ? `E2E-p${i}` : undefined,
        counterpartyIban: CREDITOR,
      }),
    );
    expect(pairs(matchPayments(payments, txs, config).matches())).toEqual(
      pairs(matchPayments(payments, txs, config).matches()),
    );
  });
});

describe('the match result', () => {
  const bulk = [
    payment('l1', { batchBooking: true, amount: nok(1_000n) }),
    payment('l2', { batchBooking: true, amount: nok(2_500n) }),
  ];
  const payments = [payment('p1'), ...bulk];
  const txs = [debit('lump', 3_500n, { bookingDate: d('2026-03-11') }), debit('t1', 10_000n, { endToEndId: 'E2E-p1' })];

  it('builds each match on demand with its differences, and refuses a number it does not have', () => {
    const result = matchPayments(payments, txs, config);
    expect(result.count).toBe(2);
    expect(result.match(1)).toEqual({
      rule: 'batch-lump-sum',
      payments: [1, 2],
      transaction: 0,
      amountDifferenceMinor: 0n,
      dateDifferenceDays: 1,
    });
    expect(result.matches()).toEqual([result.match(0), result.match(1)]);
    expect(() => result.match(2)).toThrow(RangeError);
    expect(() => result.match(-1)).toThrow(RangeError);
  });

  it('filters matches out, renumbering the rest and unmatching what they held', () => {
    const result = matchPayments(payments, txs, config);
    const kept = result.filter((k) => result.match(k).rule !== 'end-to-end');
    expect(pairs(kept.matches())).toEqual([['batch-lump-sum', [1, 2], 0]]);
    expect([...kept.matchOfPayment]).toEqual([-1, 0, 0]);
    expect([...kept.matchOfTransaction]).toEqual([0, -1]);
    // The original is left as it was.
    expect(result.count).toBe(2);
    expect([...result.matchOfPayment]).toEqual([0, 1, 1]);
  });
});
