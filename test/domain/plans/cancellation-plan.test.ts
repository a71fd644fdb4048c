import { describe, expect, it } from 'vitest';
import {
  ORDER_CANCELLED_CODE,
  planCancelledAtBank,
  planWithdrawal,
  type CancellationLineRead,
} from '../../../src/domain/plans/cancellation-plan.js';
import type { PlanStep } from '../../../src/domain/plans/plan.js';

const request = { id: 'r1', paymentIds: ['p2'], reason: 'wrong amount', requestedBy: 'kari', confirmedBy: 'ola' };
const cause = 'cancelled by kari, confirmed by ola: wrong amount';
const line = (id: string, state: CancellationLineRead['state'], bulk?: string): CancellationLineRead => ({
  id,
  state,
  ...(bulk ? { bulkId: bulk, bulkState: 'pending' as const } : {}),
});
const stepsOf = (steps: readonly PlanStep[]) => steps.map((s) => s.step);

describe('the plan of a withdrawal', () => {
  it('cancels a pending bulk, queues its other lines again in a new bulk and the named ones → CANC', () => {
    const bulk = [line('p1', 'queued', 'b1'), line('p2', 'queued', 'b1'), line('p3', 'queued', 'b1')];
    const plan = planWithdrawal(request, [bulk[1]!], bulk);
    expect(stepsOf(plan.steps)).toEqual([
      'expect-open-cancellation',
      'move',
      'move',
      'requeue',
      'close-cancellation',
      'move',
    ]);
    expect(plan.steps[0]).toEqual({ step: 'expect-open-cancellation', id: 'r1', whenClosed: 'refuse' });
    expect(plan.steps[1]).toMatchObject({
      kind: 'bulk',
      ids: ['b1'],
      from: ['pending'],
      to: 'cancelled',
      cause: { english: cause },
    });
    expect(plan.steps[2]).toMatchObject({ kind: 'payment', ids: ['p1', 'p3'], from: ['queued'], to: 'accepted' });
    expect(plan.steps[3]).toMatchObject({
      like: 'b1',
      paymentIds: ['p1', 'p3'],
      cause: { english: `queued again after its bulk b1 was cancelled (${cause})` },
    });
    expect(plan.steps[4]).toEqual({ step: 'close-cancellation', id: 'r1', outcome: 'withdrawn', resent: true });
    expect(plan.steps[5]).toMatchObject({
      kind: 'payment',
      ids: ['p2'],
      from: ['queued'],
      to: 'CANC',
      source: 'cancel',
      messages: [{ category: 'INFO', code: ORDER_CANCELLED_CODE, message: cause }],
    });
  });

  it('withdraws lines in no bulk alone, and a bulk whose every line is named without a new bulk', () => {
    const loose = planWithdrawal(request, [line('p2', 'accepted')], []);
    expect(stepsOf(loose.steps)).toEqual(['expect-open-cancellation', 'close-cancellation', 'move']);
    expect(loose.steps[1]).toMatchObject({ outcome: 'withdrawn', resent: false });
    const whole = planWithdrawal(request, [line('p2', 'queued', 'b1')], [line('p2', 'queued', 'b1')]);
    expect(stepsOf(whole.steps)).toEqual(['expect-open-cancellation', 'move', 'close-cancellation', 'move']);
  });
});

describe('the plan of the bank’s CANC', () => {
  const atBank = { ...request, bulkId: 'b1' };
  const bulk = [line('p1', 'ACTC', 'b1'), line('p2', 'ACTC', 'b1')];

  it('is applied once, cancels the bulk and named lines as the bank reported, and queues the others again', () => {
    const plan = planCancelledAtBank(atBank, bulk, { fileId: 'f1', state: 'submitted', otherBulksOpen: 0 });
    expect(plan.steps[0]).toEqual({ step: 'expect-open-cancellation', id: 'r1', whenClosed: 'done' });
    expect(plan.steps[1]).toMatchObject({ kind: 'bank_status', ids: ['b1'], to: 'CANC', mode: 'tolerant' });
    expect(plan.steps[2]).toMatchObject({ kind: 'bulk', ids: ['b1'], to: 'cancelled' });
    expect(plan.steps[3]).toMatchObject({ kind: 'payment', ids: ['p2'], to: 'CANC', bankReported: true });
    expect(plan.steps[4]).toMatchObject({ step: 'requeue', like: 'b1', paymentIds: ['p1'], from: ['ACTC'] });
    expect(plan.steps[5]).toEqual({ step: 'close-cancellation', id: 'r1', outcome: 'cancelled', resent: true });
    expect(plan.steps).toHaveLength(6);
  });

  it('completes the file when the bulk was its last one open and nothing is queued again', () => {
    const all = { ...atBank, paymentIds: ['p1', 'p2'] };
    const last = planCancelledAtBank(all, bulk, { fileId: 'f1', state: 'submitted', otherBulksOpen: 0 });
    expect(last.steps.at(-1)).toMatchObject({
      kind: 'payment_file',
      ids: ['f1'],
      from: ['submitted'],
      otherwise: 'leave',
      to: 'completed',
    });
    const notLast = planCancelledAtBank(all, bulk, { fileId: 'f1', state: 'submitted', otherBulksOpen: 1 });
    expect(notLast.steps.at(-1)).toMatchObject({ step: 'close-cancellation', resent: false });
  });
});
