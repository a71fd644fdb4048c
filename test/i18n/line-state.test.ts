import { describe, expect, it } from 'vitest';
import { describeLineState } from '../../src/i18n/index.js';
import { LINE_STATES } from '../../src/domain/states.js';

describe('a line state in plain words', () => {
  it('says why the bank rejected a line and what to do', () => {
    const d = describeLineState('RJCT', [{ code: 'AC04', text: 'Closed account number' }]);
    expect(d.label).toBe('Rejected by the bank: AC04 Closed account number');
    expect(d.action).toMatch(/account is closed/);
  });

  it('describes every state, none with a code alone', () => {
    for (const state of LINE_STATES) {
      const { label } = describeLineState(state);
      expect(label, state).toMatch(/^[A-Z][a-z]/);
      expect(label, state).not.toBe(state);
    }
  });

  it('gives no action for a state that is not an ending', () => {
    expect(describeLineState('PDNG', [{ code: 'NARR', text: 'waiting for cover' }])).toEqual({
      label: 'Pending at the bank: NARR waiting for cover',
    });
  });
});
