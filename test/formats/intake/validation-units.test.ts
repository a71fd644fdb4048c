// Pure pieces of validation: control-total arithmetic (never floats), the character-set rule,
// RF creditor references, and the line rules' refusal to build a payment from a broken line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../../../src/domain/local-date.js';
import { charactersOutside, charsetRule, transliterate } from '../../../src/domain/validation/charset.js';
import { checkControl, ControlTotals, parseDecimal } from '../../../src/domain/validation/control-totals.js';
import { compileLineRules, validCreditorReference } from '../../../src/domain/validation/line-rules.js';

describe('control totals', () => {
  it('sums decimals of mixed scale exactly (0.1 + 0.2 = 0.3, no float error)', () => {
    const totals = new ControlTotals();
    totals.add('B', '0.1');
    totals.add('B', '0.2');
    const issues = checkControl(
      {
        level: 'payment-info',
        block: 'B',
        location: { path: '/B' },
        nbOfTxs: { value: '2', location: { path: '/B/NbOfTxs' } },
        ctrlSum: { value: '0.30', location: { path: '/B/CtrlSum' } },
      },
      totals.computed('B'),
    );
    expect(issues).toEqual([]);
  });

  it('counts every transaction towards the group as well as its block', () => {
    const totals = new ControlTotals();
    totals.add('A', '1');
    totals.add('B', '2.5');
    expect(totals.computed('').count).toBe(2);
    expect(parseDecimal('99999999999999999999.99')).toEqual({ digits: 9999999999999999999999n, scale: 2 });
  });

  it('does not check CtrlSum when an amount could not be read (that amount has its own issue)', () => {
    const totals = new ControlTotals();
    totals.add('', 'abc');
    expect(
      checkControl(
        { level: 'group', block: '', location: {}, ctrlSum: { value: '5', location: {} } },
        totals.computed(''),
      ),
    ).toEqual([]);
  });
});

describe('character set', () => {
  it('leaves allowed text alone and transliterates the rest', () => {
    const epc = charsetRule();
    expect(transliterate(epc, 'Invoice 12/2026')).toEqual({ text: 'Invoice 12/2026', changed: false });
    expect(transliterate(epc, 'Ærø Straße')).toEqual({ text: 'Aero Strasse', changed: true });
    expect(transliterate(charsetRule('æøåÆØÅ'), 'Ærø')).toEqual({ text: 'Ærø', changed: false });
    expect(transliterate(charsetRule('', 'any'), '東京 ✓')).toEqual({ text: '東京 ✓', changed: false });
  });

  it.each([
    ['regex metacharacters in extra', 'æøå]^\\-'],
    ['a character beyond one UTF-16 unit in extra', 'æ😀'],
  ])('the compiled pattern agrees with the character set on any text (%s)', (_, extra) => {
    const rule = charsetRule(extra);
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.constantFrom('a', 'Z', '9', ' ', '-', ']', '^', '\\', '[', 'æ', 'é', '#', '/', '\n', '😀', '\ud83d'),
            fc.integer({ min: 0x20, max: 0x2fff }).map((c) => String.fromCodePoint(c)),
          ),
        }),
        (text) => {
          const bad = [...text].filter((ch) => !rule.allowed!.has(ch));
          expect(charactersOutside(rule, text)).toEqual([...new Set(bad)]);
          expect(transliterate(rule, text).changed).toBe(bad.length > 0);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('line rules', () => {
  const rules = compileLineRules(
    { asOf: '2026-01-05' as LocalDate },
    { decimalFormat: { decimalSeparator: ',', thousandsSeparator: '.' }, dateFormat: 'DD.MM.YYYY' },
  );
  const at = (column: number) => ({ row: 2, column });
  const line = (amount: string) => ({
    lineNumber: 2,
    location: { row: 2 },
    fields: {
      debtorIban: { value: 'NO93 8601 1117 947', location: at(1) },
      debtorName: { value: 'Acme AS', location: at(2) },
      requestedExecutionDate: { value: '07.01.2026', location: at(3) },
      endToEndId: { value: 'E1', location: at(4) },
      amount: { value: amount, location: at(5) },
      currency: { value: 'nok', location: at(6) },
      creditorIban: { value: 'DE89370400440532013000', location: at(7) },
      creditorName: { value: 'Lieferant', location: at(8) },
    },
  });

  it('parses a profile-formatted amount and date, normalises the IBAN and currency', () => {
    const r = rules(line('1.234,50'));
    expect(r.issues).toEqual([]);
    expect(r.payment).toMatchObject({
      debtorIban: 'NO9386011117947',
      requestedExecutionDate: '2026-01-07',
      amount: { minor: 123450n, currency: 'NOK' },
    });
  });

  it("keeps the creditor's organisation number and ERP creditor id, trimmed, and refuses one over 35 characters", () => {
    const ids = (orgId: string, creditorId: string, scheme = 'ORGNR') => {
      const l = line('10,00');
      return rules({
        ...l,
        fields: {
          ...l.fields,
          creditorOrgId: { value: orgId, location: at(9) },
          creditorOrgScheme: { value: scheme, location: at(11) },
          creditorId: { value: creditorId, location: at(10) },
        },
      });
    };
    expect(ids(' 999888777 ', 'K-1001').payment).toMatchObject({
      creditorOrgId: '999888777',
      creditorOrgScheme: 'ORGNR',
      creditorId: 'K-1001',
    });
    // A scheme without a number says nothing, and is not kept.
    const blank = ids('', '  ').payment!;
    expect(['creditorOrgId', 'creditorOrgScheme', 'creditorId'].filter((k) => k in blank)).toEqual([]);
    expect(ids('9'.repeat(36), 'K').issues).toEqual([
      expect.objectContaining({ code: 'CREDITOR_ID_TOO_LONG', severity: 'error', location: at(9) }),
    ]);
  });

  it('gives every line the same verdict whatever its cached neighbours (accounts and currencies as written)', () => {
    // The rules cache account checks per field and currencies by their text: lines that take
    // turns with other accounts and spellings must read as each does alone.
    const variant = (i: number) => {
      const l = line('10,00');
      l.fields.currency.value = ['nok', 'NOK', 'xyz', 'Nok'][i % 4]!;
      l.fields.creditorIban.value = ['DE89370400440532013000', 'NO9386011117948', 'NO93 8601 1117 947'][i % 3]!;
      if (i % 5 === 0) l.fields.debtorIban.value = 'DE89370400440532013000';
      return l;
    };
    const fresh = (i: number) =>
      compileLineRules(
        { asOf: '2026-01-05' as LocalDate },
        { decimalFormat: { decimalSeparator: ',', thousandsSeparator: '.' }, dateFormat: 'DD.MM.YYYY' },
      )(variant(i));
    const verdicts = Array.from({ length: 60 }, (_, i) => rules(variant(i)));
    verdicts.forEach((r, i) => expect(r).toEqual(fresh(i)));
    expect(verdicts[2]!.issues.map((i) => i.code)).toEqual(['CURRENCY_INVALID']);
    expect(verdicts[1]!.issues.map((i) => i.code)).toEqual(['IBAN_INVALID']);
  });

  it('never rounds: an extra decimal is an error and no payment is built, but the amount is still not lost for totals', () => {
    const r = rules(line('1,005'));
    expect(r.issues.map((i) => i.code)).toEqual(['AMOUNT_PRECISION']);
    expect(r.payment).toBeUndefined();
  });

  it('checks RF creditor references with mod-97 and accepts other references by length', () => {
    expect(validCreditorReference('RF18 5390 0754 7034')).toBe(true);
    expect(validCreditorReference('RF18539007547035')).toBe(false);
    expect(validCreditorReference('1234567890128')).toBe(true);
  });

  // Whatever its case or leading white space, a reference beginning "RF" is checked as RF, and
  // its length is counted without spaces.
  it.each([
    ['rf18539007547035', false],
    ['rf18 5390 0754 7034', true],
    [' RF18539007547035', false],
    ['\u00a0RF18539007547035', false],
    ['\u00a0RF18539007547034', true],
    ['1'.repeat(35), true],
    ['1'.repeat(36), false],
    ['1 '.repeat(35), true],
  ])('reads the reference %j as valid: %s', (reference, valid) => {
    expect(validCreditorReference(reference)).toBe(valid);
  });
});
