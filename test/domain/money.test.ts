import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, formatMinor, parseAmount, totalsByCurrency } from '../../src/domain/money.js';

const ok = (text: string, currency: string, format?: Parameters<typeof parseAmount>[2]) => {
  const r = parseAmount(text, currency, format);
  if (!r.ok) throw new Error(r.message);
  return r.money.minor;
};

describe('money', () => {
  it('parses decimal strings straight to minor units', () => {
    expect(ok('1234.50', 'NOK')).toBe(123450n);
    expect(ok('0.01', 'EUR')).toBe(1n);
    expect(ok('100', 'JPY')).toBe(100n);
    expect(ok('1.234', 'BHD')).toBe(1234n);
    expect(ok('-5.5', 'NOK')).toBe(-550n);
  });

  it('refuses more decimals than the currency has instead of rounding', () => {
    const r = parseAmount('10.005', 'NOK');
    expect(r).toMatchObject({ ok: false, problem: 'precision' });
    expect(parseAmount('100.5', 'JPY')).toMatchObject({ ok: false, problem: 'precision' });
  });

  it('accepts trailing zeros beyond the exponent, which change nothing', () => {
    expect(ok('10.500', 'NOK')).toBe(1050n);
  });

  it('refuses unknown currencies and malformed numbers', () => {
    expect(parseAmount('1.00', 'ABC')).toMatchObject({ ok: false, problem: 'currency' });
    expect(parseAmount('1.00', 'XXX')).toMatchObject({ ok: false, problem: 'currency' });
    for (const bad of ['', '1,00', '1.', '.5', '1e3', '0x10', '1.2.3', ' - 1', 'NaN']) {
      expect(parseAmount(bad, 'NOK'), bad).toMatchObject({ ok: false, problem: 'syntax' });
    }
  });

  it('reads Nordic formats with decimal comma and grouping', () => {
    expect(ok('1 234 567,89', 'NOK', { decimalSeparator: ',', thousandsSeparator: ' ' })).toBe(123456789n);
    expect(ok('1.234,50', 'EUR', { decimalSeparator: ',', thousandsSeparator: '.' })).toBe(123450n);
    expect(ok('1234,50', 'EUR', { decimalSeparator: ',', thousandsSeparator: '.' })).toBe(123450n);
    // "1.000" with a decimal comma format is one thousand, never 1.00
    expect(ok('1.000', 'EUR', { decimalSeparator: ',', thousandsSeparator: '.' })).toBe(100000n);
    // misplaced grouping is an error, not a guess
    expect(parseAmount('12.34,50', 'EUR', { decimalSeparator: ',', thousandsSeparator: '.' })).toMatchObject({
      ok: false,
    });
  });

  it('handles amounts far beyond 2^53 exactly', () => {
    expect(ok('123456789012345678.99', 'NOK')).toBe(12345678901234567899n);
    expect(formatMinor(12345678901234567899n, 2)).toBe('123456789012345678.99');
  });

  it('formats with the currency exponent', () => {
    expect(formatAmount({ minor: 5n, currency: 'NOK' })).toBe('0.05');
    expect(formatAmount({ minor: -123450n, currency: 'NOK' }, ',')).toBe('-1234,50');
    expect(formatAmount({ minor: 100n, currency: 'JPY' })).toBe('100');
    expect(formatAmount({ minor: 1n, currency: 'BHD' })).toBe('0.001');
  });

  it('round-trips every minor amount through format and parse', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.constantFrom('NOK', 'JPY', 'BHD', 'EUR'),
        (minor, currency) => {
          expect(ok(formatAmount({ minor, currency }), currency)).toBe(minor);
        },
      ),
    );
  });

  it('totals per currency in first-seen order', () => {
    expect(
      totalsByCurrency([
        { minor: 100n, currency: 'NOK' },
        { minor: 5n, currency: 'EUR' },
        { minor: 250n, currency: 'NOK' },
      ]),
    ).toEqual([
      { currency: 'NOK', minor: 350n },
      { currency: 'EUR', minor: 5n },
    ]);
  });
});
