import { describe, expect, it } from 'vitest';
import { displayMoney } from '../../src/domain/display.js';

describe('money for people', () => {
  it('groups thousands and keeps every digit, beyond what a float holds', () => {
    expect(displayMoney({ minor: 197_520n, currency: 'NOK' })).toBe('1,975.20 NOK');
    expect(displayMoney({ minor: 1_234_567_890_123_456_789n, currency: 'EUR' })).toBe('12,345,678,901,234,567.89 EUR');
    expect(displayMoney({ minor: -5n, currency: 'NOK' })).toBe('-0.05 NOK');
  });

  it("uses the currency's decimals and the locale's marks", () => {
    expect(displayMoney({ minor: 1_000_000n, currency: 'JPY' })).toBe('1,000,000 JPY');
    expect(displayMoney({ minor: 9_388_540n, currency: 'NOK' }, 'nb-NO')).toBe('93\u00a0885,40 NOK');
  });
});
