// The status reason codes of held and dropped lines (docs/formats/pain002.md): one per rule,
// distinct between rules, and never one a bank's refusal is reported with.
import { describe, expect, it } from 'vitest';
import {
  CONTROL_RULES,
  droppedReasonCodes,
  DUPLICATE_RULE,
  heldReasonCodes,
  RULE_REASON_CODES,
} from '../../src/domain/controls/index.js';
import { messageForTpp, reasonCodeOf } from '../../src/domain/line-message.js';

describe('reason codes of holds', () => {
  const rules = [DUPLICATE_RULE, ...CONTROL_RULES];

  it('gives every rule its own code while held and its own code once dropped, all different', () => {
    expect(Object.keys(RULE_REASON_CODES).sort()).toEqual([...rules].sort());
    const codes = Object.values(RULE_REASON_CODES).flatMap((c) => [c.held, c.dropped]);
    expect(new Set(codes).size).toBe(rules.length * 2);
    // Proprietary codes fit pain.002's Prtry (Max35Text) and are no 4-character ISO code.
    for (const code of codes.filter((c) => c !== 'DUPL')) {
      expect(code.length).toBeLessThanOrEqual(35);
      expect(code).toMatch(/^SETTLE-/);
    }
  });

  it('names one code a rule, in the order of the rules, for a line several rules held', () => {
    expect(heldReasonCodes(['duplicate', 'changed-account', 'limit-line'])).toEqual([
      'DUPL',
      'SETTLE-HELD-CHANGED-ACCOUNT',
      'SETTLE-HELD-LIMIT-LINE',
    ]);
    expect(droppedReasonCodes(['duplicate'])).toEqual(['SETTLE-DROPPED-DUPLICATE']);
  });

  it('keeps a hold code in the status files where a bank code it does not know becomes NARR', () => {
    expect(reasonCodeOf('SETTLE-HELD-NEW-ACCOUNT')).toBe('NARR');
    expect(messageForTpp({ code: 'SETTLE-HELD-NEW-ACCOUNT', message: 'held by payment controls' }, 3)).toMatchObject({
      code: 'SETTLE-HELD-NEW-ACCOUNT',
      bankText: 'held by payment controls',
      action: expect.stringMatching(/^Wait: a person releases or drops it/),
    });
    expect(messageForTpp({ code: 'DUPL', message: '' }, 3)).toMatchObject({ code: 'DUPL', bankText: '' });
    expect(messageForTpp({ code: 'SETTLE-DROPPED-DUPLICATE', message: 'x' }, 3).action).toMatch(/dropped it/);
  });
});
