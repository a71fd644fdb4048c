// The domain state machines (src/domain/states.ts) that the store enforces.
import { describe, expect, it } from 'vitest';
import { isSettleError } from '../../src/domain/errors.js';
import {
  BANK_STATUSES,
  bankStatusRank,
  basketMachine,
  bulkMachine,
  canonicalBankStatus,
  decideUpdate,
  fileMachine,
  paymentMachine,
  TERMINAL_BANK_STATUSES,
  transition,
  type StateMachine,
} from '../../src/domain/states.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isSettleError(error) ? error.code : 'not a SettleError';
  }
  return undefined;
}

describe('state machines', () => {
  it('canonicalises bank statuses from either casing and rejects unknown codes', () => {
    expect(canonicalBankStatus('acsc')).toBe('ACSC');
    expect(canonicalBankStatus(' Pdng ')).toBe('PDNG');
    expect(canonicalBankStatus('DONE')).toBeUndefined();
  });

  it('treats ACSC, ACCC, RJCT and CANC as terminal', () => {
    expect([...TERMINAL_BANK_STATUSES].sort()).toEqual(['ACCC', 'ACSC', 'CANC', 'RJCT']);
  });

  it('lets a file be accepted, rejected or duplicate once received, and refuses going back', () => {
    expect(transition(fileMachine, 'received', 'accepted')).toBe('accepted');
    expect(codeOf(() => transition(fileMachine, 'accepted', 'received'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
    expect(codeOf(() => transition(fileMachine, 'rejected', 'accepted'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
  });

  it('never lets an unknown bulk be sent again without a lookup', () => {
    expect(codeOf(() => transition(bulkMachine, 'unknown', 'sending'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
    expect(codeOf(() => transition(bulkMachine, 'unknown', 'pending'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
    expect(transition(bulkMachine, 'unknown', 'sent')).toBe('sent');
    expect(transition(bulkMachine, 'sending', 'pending')).toBe('pending');
  });

  it('moves a payment only forward through the bank statuses', () => {
    expect(decideUpdate(paymentMachine, 'sent', 'RCVD')).toBe('apply');
    expect(decideUpdate(paymentMachine, 'RCVD', 'ACTC')).toBe('apply');
    expect(decideUpdate(paymentMachine, 'ACTC', 'RCVD')).toBe('stale');
    expect(decideUpdate(paymentMachine, 'ACSP', 'ACSP')).toBe('duplicate');
    expect(decideUpdate(paymentMachine, 'ACSC', 'ACCC')).toBe('apply');
    expect(decideUpdate(paymentMachine, 'RJCT', 'ACSC')).toBe('stale');
    expect(decideUpdate(paymentMachine, 'ACSP', 'RJCT')).toBe('apply');
    expect(codeOf(() => decideUpdate(paymentMachine, 'accepted', 'ACSC'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
    expect(codeOf(() => transition(paymentMachine, 'ACTC', 'RCVD'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
  });

  it('ranks every non-terminal bank status below every terminal one', () => {
    const open = BANK_STATUSES.filter((s) => !TERMINAL_BANK_STATUSES.has(s));
    for (const s of open)
      for (const t of TERMINAL_BANK_STATUSES) expect(bankStatusRank(s)).toBeLessThan(bankStatusRank(t));
  });

  it('has tables that only name their own states, and nothing leaves a terminal state except ACSC to ACCC', () => {
    for (const m of [fileMachine, bulkMachine, paymentMachine, basketMachine] as StateMachine<string>[]) {
      for (const from of m.states) {
        for (const to of m.transitions[from] ?? []) expect(m.states).toContain(to);
        if (m.terminal.has(from) && from !== 'ACSC') expect(m.transitions[from]).toEqual([]);
      }
    }
  });

  it('takes the bank at its word when a basket whose link we marked expired turns out authorised', () => {
    // Found by the crash test: an approver signed just before expiry; we learned it afterwards.
    expect(transition(basketMachine, 'expired', 'authorised')).toBe('authorised');
    expect(codeOf(() => transition(basketMachine, 'authorised', 'expired'))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
  });

  it('refuses names that are not states of the machine', () => {
    expect(codeOf(() => transition(fileMachine, 'received', 'nonsense' as never))).toBe('ERR_STATE_TRANSITION_ILLEGAL');
  });
});
