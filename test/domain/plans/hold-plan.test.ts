import { describe, expect, it } from 'vitest';
import { SettleError } from '../../../src/domain/errors.js';
import { planHoldDecision, type HoldRead } from '../../../src/domain/plans/hold-plan.js';

const hold: HoldRead = { id: 'h1', paymentId: 'p1', rules: ['duplicate'], releasesNeeded: 1 };
const ola = { by: 'ola', person: 'ola', reason: 'a second delivery' };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof SettleError ? error.code : String(error);
  }
  return undefined;
};

describe('the plan of a decision on a hold', () => {
  it('releases a line back to accepted and keeps the decision on the held row', () => {
    const plan = planHoldDecision(hold, 'released', ola);
    expect(plan.steps).toEqual([
      { step: 'expect-undecided-hold', id: 'h1' },
      { step: 'decide-hold', id: 'h1', decision: 'released', by: 'ola', reason: 'a second delivery' },
      {
        step: 'move',
        kind: 'payment',
        ids: ['p1'],
        to: 'accepted',
        cause: {
          english: 'released by ola: a second delivery',
          said: { key: 'historyCause.released', values: { by: 'ola', reason: 'a second delivery' } },
        },
        source: 'operator',
        messages: [],
      },
    ]);
  });

  it('drops a line to CANC with one reason code per rule that held it', () => {
    const plan = planHoldDecision({ ...hold, rules: ['changed-account', 'limit-line'] }, 'dropped', ola);
    const moveStep = plan.steps[2]!;
    expect(moveStep).toMatchObject({ kind: 'payment', to: 'CANC' });
    const messages = moveStep.step === 'move' ? moveStep.messages! : [];
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages[0]!.message).toBe('dropped after a hold by changed-account, limit-line by ola: a second delivery');
  });

  it('records the first of two releases and moves nothing; a second person in the console decides', () => {
    const two: HoldRead = { ...hold, rules: ['changed-account'], releasesNeeded: 2 };
    expect(planHoldDecision(two, 'released', ola).steps).toEqual([
      { step: 'expect-undecided-hold', id: 'h1' },
      { step: 'first-release', id: 'h1', by: 'ola', person: 'ola', reason: 'a second delivery' },
    ]);
    const once: HoldRead = { ...two, firstRelease: { by: 'ola', person: 'ola' } };
    expect(codeOf(() => planHoldDecision(once, 'released', ola))).toBe('ERR_HOLD_SAME_PERSON');
    const kari = { by: 'kari', person: 'kari', reason: 'checked' };
    expect(codeOf(() => planHoldDecision(once, 'released', kari))).toBe('ERR_HOLD_SECOND_IN_CONSOLE');
    expect(planHoldDecision(once, 'released', { ...kari, secondRelease: true }).steps[0]).toEqual({
      step: 'expect-undecided-hold',
      id: 'h1',
      firstReleasedPerson: 'ola',
    });
  });

  it('refuses a hold already decided', () => {
    const decided: HoldRead = { ...hold, decision: 'dropped', decidedBy: 'kari' };
    expect(codeOf(() => planHoldDecision(decided, 'released', ola))).toBe('ERR_PAYMENT_NOT_HELD');
  });
});
