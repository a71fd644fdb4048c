import { describe, expect, it } from 'vitest';
import { parseCreditorReference } from '../../src/domain/creditor-reference.js';

describe('parseCreditorReference', () => {
  it('reads an ISO 11649 RF reference and checks its MOD 97 digits', () => {
    expect(parseCreditorReference('RF18 5390 0754 7034')).toEqual({
      kind: 'RF',
      value: 'RF18539007547034',
      valid: true,
    });
    expect(parseCreditorReference('rf18539007547034')?.valid).toBe(true);
    expect(parseCreditorReference('RF18539007547035')).toEqual({ kind: 'RF', value: 'RF18539007547035', valid: false });
    expect(parseCreditorReference('RF18-5390')?.valid).toBe(false);
    expect(parseCreditorReference('RF1812345678901234567890123')?.valid).toBe(false);
  });

  it('reads a KID with a MOD10 (Luhn) check digit', () => {
    expect(parseCreditorReference('79927398713')).toEqual({
      kind: 'KID',
      value: '79927398713',
      valid: true,
      check: 'MOD10',
    });
    expect(parseCreditorReference('7992 7398 713')?.valid).toBe(true);
  });

  it('reads a KID with a MOD11 check digit, including "-" for remainder 10', () => {
    // 8601111794-7: the MOD11 digits of a real Norwegian account number.
    expect(parseCreditorReference('86011117947')).toEqual({
      kind: 'KID',
      value: '86011117947',
      valid: true,
      check: 'MOD11',
    });
    expect(parseCreditorReference('100008-')).toEqual({ kind: 'KID', value: '100008-', valid: true, check: 'MOD11' });
  });

  it('marks a KID whose check digit fits neither method as invalid', () => {
    expect(parseCreditorReference('0012345678')).toEqual({ kind: 'KID', value: '0012345678', valid: false });
    expect(parseCreditorReference('79927398710')?.valid).toBe(false);
  });

  it('does not take free text, a single digit or a KID longer than 25 digits for a structured reference', () => {
    expect(parseCreditorReference('Invoice 4711')).toBeUndefined();
    expect(parseCreditorReference('7')).toBeUndefined();
    expect(parseCreditorReference('')).toBeUndefined();
    expect(parseCreditorReference('1'.repeat(26))).toBeUndefined();
  });
});
