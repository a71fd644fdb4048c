import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFormulaLike, isPlainSignedNumber, neutraliseFormula, neutraliseNumericCell } from '../../../src/formats/csv-safety.js';

describe('CSV formula-injection neutralising', () => {
  it('prefixes a single quote to cells a spreadsheet would run as a formula', () => {
    for (const cell of ['=1+1', '+49 170', '-foo', '@SUM(A1)', '\t=1', '\r=1', '＝1+1', '=HYPERLINK("http://x")']) {
      expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    }
  });

  it('leaves ordinary text, empty cells and text with a trigger character later on alone', () => {
    for (const cell of ['', 'Nordlys AS', 'a=b', "'already", ' =1', 'INV-1']) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it('keeps plain signed numbers in numeric columns as numbers and treats anything else there as text', () => {
    expect(neutraliseNumericCell('-754.25')).toBe('-754.25');
    expect(neutraliseNumericCell('-754,25', ',')).toBe('-754,25');
    expect(neutraliseNumericCell('12')).toBe('12');
    expect(neutraliseNumericCell('-754,25', '.')).toBe("'-754,25");
    expect(neutraliseNumericCell('-1+1')).toBe("'-1+1");
    expect(neutraliseNumericCell('+5')).toBe("'+5");
    expect(neutraliseNumericCell('-1e5')).toBe("'-1e5");
    expect(isPlainSignedNumber('-.5')).toBe(false);
  });

  it('never leaves a formula-like cell and never loses what was there', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '1', '.', 'a', ' ', "'") }), (cell) => {
        const safe = neutraliseFormula(cell);
        expect(isFormulaLike(safe)).toBe(false);
        expect(safe === cell || safe === `'${cell}`).toBe(true);
      }),
    );
  });
});
