import { describe, expect, it } from 'vitest';
import { fitIdentifier, shortIdentifier } from '../../src/domain/iso-identifier.js';

describe('an id in an ISO 20022 identifier field', () => {
  it('is written as is when it fits', () => {
    expect(fitIdentifier('E2E-1', 35)).toEqual({ value: 'E2E-1' });
    expect(fitIdentifier('x'.repeat(35), 35)).toEqual({ value: 'x'.repeat(35) });
    expect(fitIdentifier('Tromsø-1', 35)).toEqual({ value: 'Tromsø-1' });
  });

  it('is never cut: a longer one gets a short stand-in, the same every time, and the full id beside it', () => {
    const uuid = '0b6f3a52-9c1d-4e8f-a7b2-3c4d5e6f7a8b';
    const fitted = fitIdentifier(uuid, 35);
    expect(fitted.value).toMatch(/^STL-[0-9A-F]{20}$/);
    expect(fitted.full).toBe(uuid);
    expect(fitIdentifier(uuid, 35)).toEqual(fitted);
    expect(fitIdentifier(uuid.replace('0b', '0c'), 35).value).not.toBe(fitted.value);
    expect(fitIdentifier(uuid, 16).value).toHaveLength(16);
  });

  it('gives a stand-in for an id a field could only hold changed (a line break, surrounding spaces)', () => {
    expect(fitIdentifier('A\nB', 35).value).toMatch(/^STL-/);
    expect(fitIdentifier(' AB', 35).value).toMatch(/^STL-/);
  });

  it("is the CSV bulk's OrgnlPmtInfId as before: STL- and 20 hex digits of the bulk id's SHA-256", () => {
    expect(shortIdentifier('bulk-1')).toBe('STL-43712340643A2117EDA9');
  });
});
