import { describe, expect, it } from 'vitest';
import { describePaymentState } from '../../src/i18n/index.js';
import { PAYMENT_STATES } from '../../src/domain/states.js';

describe('a payment state in plain words', () => {
  it('says why the bank rejected a payment and what to do', () => {
    const d = describePaymentState('RJCT', [{ code: 'AC04', text: 'Closed account number' }]);
    expect(d.label).toBe('Rejected by the bank: AC04 Closed account number');
    expect(d.action).toMatch(/account is closed/);
  });

  it('describes every state, none with a code alone', () => {
    for (const state of PAYMENT_STATES) {
      const { label } = describePaymentState(state);
      expect(label, state).toMatch(/^[A-Z][a-z]/);
      expect(label, state).not.toBe(state);
    }
  });

  it('gives no action for a state that is not an ending', () => {
    expect(describePaymentState('PDNG', [{ code: 'NARR', text: 'waiting for cover' }])).toEqual({
      label: 'Pending at the bank: NARR waiting for cover',
    });
  });
});
