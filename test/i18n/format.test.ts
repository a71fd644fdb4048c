// Money and dates as each language writes them. Amounts are formatted from the exact decimal
// string of their minor units: a float would round amounts beyond 2^53 minor units.
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { chooseLocale, acceptedLanguages, format } from '../../src/i18n/index.js';

const nok = (minor: bigint) => ({ minor, currency: 'NOK' });

describe('money by language', () => {
  it('writes bokmål amounts with spaces, a decimal comma and "kr"', () => {
    expect(format.money(nok(9388540n), 'nb')).toBe('93\u00a0885,40\u00a0kr');
    expect(format.amount(nok(9388540n), 'nb')).toBe('93\u00a0885,40');
  });
  it('writes English amounts with commas and the code after', () => {
    expect(format.money(nok(9388540n), 'en')).toBe('93,885.40 NOK');
  });
  it('is exact beyond a float: 2^63 minor units keep every digit', () => {
    const huge = 9223372036854775807n;
    expect(format.amount(nok(huge), 'en')).toBe('92,233,720,368,547,758.07');
    expect(format.amount(nok(huge), 'nb').replace(/\s/g, ' ')).toBe('92 233 720 368 547 758,07');
    // The same number through a float loses its last digits: what the formatter must never do.
    expect(new Intl.NumberFormat('en', { minimumFractionDigits: 2 }).format(Number(huge) / 100)).not.toBe(
      '92,233,720,368,547,758.07',
    );
  });
  it("uses the currency's own decimals and keeps the sign", () => {
    expect(format.money({ minor: 1234n, currency: 'JPY' }, 'nb')).toBe('1\u00a0234\u00a0JPY');
    expect(format.money({ minor: -150n, currency: 'EUR' }, 'nb')).toBe('\u22121,50\u00a0€');
    expect(format.money({ minor: -150n, currency: 'EUR' }, 'en')).toBe('-1.50 EUR');
  });
});

describe('dates by language', () => {
  it('writes a date as 08.01.2026 in bokmål and 8 Jan 2026 in English', () => {
    expect(format.date('2026-01-08' as LocalDate, 'nb')).toBe('08.01.2026');
    expect(format.date('2026-01-08' as LocalDate, 'en')).toBe('8 Jan 2026');
  });
  it("writes an instant in the company's zone, on a 24-hour clock", () => {
    const at = new Date('2026-07-01T22:30:00Z');
    expect(format.dateTime(at, 'Europe/Oslo', 'nb')).toBe('02.07.2026, 00:30');
    expect(format.dateTime(at, 'UTC', 'en')).toBe('1 Jul 2026, 22:30');
  });
  it('sorts æ, ø and å after z in bokmål', () => {
    expect(['Åse', 'Øvre', 'Zeta', 'Ære', 'Anne'].sort(format.collator('nb').compare)).toEqual([
      'Anne',
      'Zeta',
      'Ære',
      'Øvre',
      'Åse',
    ]);
  });
});

describe('choosing the language', () => {
  it('takes the first preference settle speaks: profile, then browser, then company', () => {
    expect(chooseLocale([undefined, ...acceptedLanguages('nb-NO,nb;q=0.9,en;q=0.8'), 'en'])).toBe('nb');
    expect(chooseLocale(['en', ...acceptedLanguages('nb-NO'), 'nb'])).toBe('en');
    expect(chooseLocale([undefined, ...acceptedLanguages('de-DE,en;q=0.5')])).toBe('en');
  });
  it('reads Norwegian in any of its tags as bokmål', () => {
    for (const tag of ['no', 'nb-NO', 'nn', 'nn-NO']) expect(chooseLocale([tag])).toBe('nb');
  });
  it('honours q-values, and skips tags it cannot read', () => {
    expect(acceptedLanguages('en;q=0.1, nb;q=0.9')).toEqual(['nb', 'en']);
    expect(chooseLocale(['!!not a tag', 'sv', 'nb'])).toBe('nb');
    expect(chooseLocale(['fr'])).toBe('en');
  });
});
