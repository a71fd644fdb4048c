// A group's status from its lines' statuses: the least advanced line's, PART when some are refused.
// A file's group can hold a million lines, more than a function call may take as arguments.
import { describe, expect, it } from 'vitest';
import { groupStatus, type PaymentLineStatus } from '../../src/domain/payment-status.js';

describe('a group status', () => {
  it('is the least advanced line status, PART with a refused line, none for no lines', () => {
    expect(groupStatus(['ACSC', 'ACCP', 'ACSP'])).toBe('ACCP');
    expect(groupStatus(['ACSC', 'RJCT'])).toBe('PART');
    expect(groupStatus(['RJCT', 'RJCT'])).toBe('RJCT');
    expect(groupStatus([])).toBeUndefined();
  });

  it('reads a group of 300,000 lines of mixed statuses', () => {
    const statuses: PaymentLineStatus[] = Array.from({ length: 300_000 }, (_, i) => (i === 123_456 ? 'ACTC' : 'ACSC'));
    expect(groupStatus(statuses)).toBe('ACTC');
  });
});
