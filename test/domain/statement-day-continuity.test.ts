import { describe, expect, it } from 'vitest';
import { checkDay } from '../../src/domain/statement-day-continuity.js';
import { endOfDay, startOfDay } from '../../src/domain/zoned-time.js';
import type { LocalDate } from '../../src/domain/local-date.js';

const fmt = (minor: bigint) => `${minor} minor`;

describe('the continuity rule of one booking day', () => {
  it('holds when the previous closing plus the entries gives the bank closing', () => {
    expect(
      checkDay(
        { entrySum: -500n, entryCount: 2, previousClosing: 10_000n, bankClosing: 9_500n, earlierClosingKnown: true },
        fmt,
      ),
    ).toEqual({ continuity: 'ok', openingMinor: 10_000n, closingMinor: 9_500n });
  });

  it('is a mismatch, with the figures and the difference, when the sum does not reach the bank closing', () => {
    const verdict = checkDay(
      { entrySum: -500n, entryCount: 2, previousClosing: 10_000n, bankClosing: 9_400n, earlierClosingKnown: true },
      fmt,
    );
    expect(verdict).toMatchObject({ continuity: 'mismatch', openingMinor: 10_000n, closingMinor: 9_400n });
    expect(verdict?.finding).toContain('difference -100 minor');
  });

  it("is a mismatch when the bank's own opening balance differs from its closing of the day before", () => {
    const verdict = checkDay(
      {
        entrySum: 0n,
        entryCount: 0,
        previousClosing: 10_000n,
        bankOpening: 10_001n,
        bankClosing: 10_001n,
        earlierClosingKnown: true,
      },
      fmt,
    );
    expect(verdict?.continuity).toBe('mismatch');
  });

  it('is a gap when the closing of the day before is missing but earlier days had one', () => {
    expect(
      checkDay({ entrySum: 100n, entryCount: 1, bankClosing: 9_000n, earlierClosingKnown: true }, fmt),
    ).toMatchObject({ continuity: 'gap', closingMinor: 9_000n });
  });

  it('derives the opening of the first day of the history and marks it unchecked', () => {
    expect(
      checkDay({ entrySum: 100n, entryCount: 1, bankClosing: 9_000n, earlierClosingKnown: false }, fmt),
    ).toMatchObject({ continuity: 'unchecked', openingMinor: 8_900n });
  });

  it('gives no verdict while the bank has not reported the closing balance (the day is not complete)', () => {
    expect(
      checkDay({ entrySum: 100n, entryCount: 1, previousClosing: 1n, earlierClosingKnown: true }, fmt),
    ).toBeUndefined();
  });
});

describe('day boundaries in a time zone', () => {
  it('finds local midnight in Oslo in winter and summer, and across the spring DST change', () => {
    expect(startOfDay('2026-01-05' as LocalDate, 'Europe/Oslo').toISOString()).toBe('2026-01-04T23:00:00.000Z');
    expect(startOfDay('2026-07-01' as LocalDate, 'Europe/Oslo').toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(endOfDay('2026-03-29' as LocalDate, 'Europe/Oslo').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(startOfDay('2026-03-29' as LocalDate, 'Europe/Oslo').toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });
});
