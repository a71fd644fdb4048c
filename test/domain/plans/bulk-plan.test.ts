import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planBulks, type PlannablePayment } from '../../../src/domain/plans/bulk-plan.js';
import { toLocalDate } from '../../../src/domain/local-date.js';

const p = (
  id: string,
  debtorIban: string,
  date: string,
  lineNumber: number,
  batchBooking?: boolean,
): PlannablePayment => ({
  id,
  debtorIban,
  requestedExecutionDate: toLocalDate(date),
  lineNumber,
  ...(batchBooking === undefined ? {} : { batchBooking }),
});

describe('planning bulks', () => {
  it('groups by debtor account, execution date and batch booking, and splits at the line limit', () => {
    const plans = planBulks(
      [
        p('a', 'NO2', '2026-01-07', 1),
        p('b', 'NO1', '2026-01-07', 2),
        p('c', 'NO1', '2026-01-08', 3),
        p('d', 'NO1', '2026-01-07', 4),
        p('e', 'NO1', '2026-01-07', 5),
        p('f', 'NO1', '2026-01-07', 6, true),
      ],
      { maxLines: 2, defaultBatchBooking: false },
    );
    expect(plans.map((b) => [b.position, b.debtorIban, b.executionDate, b.batchBooking, b.paymentIds])).toEqual([
      [0, 'NO1', '2026-01-07', false, ['b', 'd']],
      [1, 'NO1', '2026-01-07', false, ['e']],
      [2, 'NO1', '2026-01-07', true, ['f']],
      [3, 'NO1', '2026-01-08', false, ['c']],
      [4, 'NO2', '2026-01-07', false, ['a']],
    ]);
    expect(plans.map((b) => b.lineSpan)).toEqual([
      { first: 2, last: 4 },
      { first: 5, last: 5 },
      { first: 6, last: 6 },
      { first: 3, last: 3 },
      { first: 1, last: 1 },
    ]);
  });

  it('gives the same plan whatever order the payments arrive in (positions fix idempotency keys)', () => {
    const arb = fc.array(
      fc.record({
        debtor: fc.constantFrom('NO1', 'NO2'),
        day: fc.constantFrom('2026-01-07', '2026-01-08'),
        batch: fc.option(fc.boolean(), { nil: undefined }),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 5 }), (rows, maxLines) => {
        const payments = rows.map((r, i) => p(`id${i}`, r.debtor, r.day, i + 1, r.batch));
        const plan = planBulks(payments, { maxLines, defaultBatchBooking: false });
        const shuffled = planBulks([...payments].reverse(), { maxLines, defaultBatchBooking: false });
        expect(shuffled).toEqual(plan);
        expect(plan.flatMap((b) => b.paymentIds).sort()).toEqual(payments.map((x) => x.id).sort());
        const lineOf = new Map(payments.map((x) => [x.id, x.lineNumber]));
        for (const b of plan) {
          expect(b.paymentIds.length).toBeLessThanOrEqual(maxLines);
          // The span the store moves the lines through holds every line of the bulk.
          const lines = b.paymentIds.map((id) => lineOf.get(id)!);
          expect(b.lineSpan).toEqual({ first: Math.min(...lines), last: Math.max(...lines) });
        }
      }),
    );
  });

  it('refuses a line limit below one', () => {
    expect(() => planBulks([], { maxLines: 0, defaultBatchBooking: false })).toThrow(RangeError);
  });
});
