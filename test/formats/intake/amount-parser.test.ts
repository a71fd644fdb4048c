// The compiled amount parser must agree with the domain's parseAmount on every input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAmount, type DecimalFormat } from '../../../src/domain/money.js';
import { compileAmountParser } from '../../../src/domain/validation/amount-parser.js';

const formats: DecimalFormat[] = [
  { decimalSeparator: '.' },
  { decimalSeparator: ',', thousandsSeparator: ' ' },
  { decimalSeparator: ',', thousandsSeparator: '.' },
  { decimalSeparator: '.', thousandsSeparator: ',' },
  { decimalSeparator: '.', thousandsSeparator: "'" },
];

describe('compiled amount parser', () => {
  it.each(formats)('agrees with parseAmount for %j', (format) => {
    const fast = compileAmountParser(format);
    const amountText = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', ',', ' ', "'", '-', 'a'), maxLength: 16 }),
      fc
        .tuple(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.nat(9999))
        .map(([w, f]) => `${w}${format.decimalSeparator}${f}`),
    );
    fc.assert(
      fc.property(amountText, fc.constantFrom('NOK', 'JPY', 'BHD', 'EUR', 'XYZ', 'nok'), (text, currency) => {
        expect(fast(text, currency)).toEqual(parseAmount(text, currency, format));
      }),
      { numRuns: 2000 },
    );
  });
});
