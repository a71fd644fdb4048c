import { describe, expect, it } from 'vitest';
import { checkBic, checkIban } from '../../src/domain/account-id.js';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import { ManualClock } from '../../src/domain/clock.js';
import {
  addDays,
  dateInZone,
  isLocalDate,
  parseDate,
  toLocalDate,
  today,
  type LocalDate,
} from '../../src/domain/local-date.js';
import { endOfDay, zonedParts } from '../../src/domain/zoned-time.js';

describe('calendar dates', () => {
  it('accepts only real calendar dates', () => {
    expect(isLocalDate('2026-02-28')).toBe(true);
    expect(isLocalDate('2026-02-29')).toBe(false);
    expect(isLocalDate('2028-02-29')).toBe(true);
    expect(isLocalDate('2026-13-01')).toBe(false);
    expect(isLocalDate('26-01-01')).toBe(false);
  });

  it('parses profile date formats', () => {
    expect(parseDate('24.12.2026', 'DD.MM.YYYY')).toBe('2026-12-24');
    expect(parseDate('20261224', 'YYYYMMDD')).toBe('2026-12-24');
    expect(parseDate('31.02.2026', 'DD.MM.YYYY')).toBeUndefined();
    expect(parseDate('24/12/2026', 'DD.MM.YYYY')).toBeUndefined();
  });

  it('adds days across month, year and DST boundaries without drifting', () => {
    expect(addDays(toLocalDate('2026-03-28'), 2)).toBe('2026-03-30');
    expect(addDays(toLocalDate('2026-12-31'), 1)).toBe('2027-01-01');
    expect(addDays(toLocalDate('2026-03-01'), -1)).toBe('2026-02-28');
  });

  it('takes "today" in the configured time zone, not the machine\'s', () => {
    const clock = new ManualClock('2026-06-30T22:30:00Z');
    expect(today(clock, 'Europe/Oslo')).toBe('2026-07-01');
    expect(today(clock, 'UTC')).toBe('2026-06-30');
    expect(dateInZone(new Date('2026-01-01T04:00:00Z'), 'America/New_York')).toBe('2025-12-31');
  });
});

describe('zoned times with formatters kept per zone', () => {
  it('gives each zone its own answer when zones alternate, across a DST change', () => {
    const instant = new Date('2026-03-29T00:30:00Z');
    for (let round = 0; round < 2; round++) {
      expect(dateInZone(instant, 'Pacific/Auckland')).toBe('2026-03-29');
      expect(dateInZone(instant, 'America/New_York')).toBe('2026-03-28');
      expect(zonedParts(instant, 'Europe/Oslo')).toMatchObject({ day: 29, hour: 1, minute: 30 });
      expect(zonedParts(new Date('2026-03-29T01:30:00Z'), 'Europe/Oslo')).toMatchObject({ hour: 3 });
      expect(zonedParts(instant, 'UTC')).toMatchObject({ day: 29, hour: 0 });
      expect(endOfDay('2026-03-29' as LocalDate, 'Europe/Oslo').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    }
  });
});

describe('business calendar', () => {
  const no = businessCalendar('NO');

  it('knows Norwegian public holidays and weekends', () => {
    expect(no.isBusinessDay(toLocalDate('2026-05-18'))).toBe(true);
    expect(no.isBusinessDay(toLocalDate('2026-05-17'))).toBe(false); // Constitution Day (a Sunday too)
    expect(no.holidayName(toLocalDate('2026-12-25'))).toBeDefined();
    expect(no.isBusinessDay(toLocalDate('2026-04-03'))).toBe(false); // Good Friday 2026
    expect(no.isBusinessDay(toLocalDate('2026-11-21'))).toBe(false); // Saturday
  });

  it('moves to the next business day over Easter', () => {
    expect(no.nextBusinessDay(toLocalDate('2026-04-02'))).toBe('2026-04-07'); // Maundy Thursday → Tuesday after Easter Monday
    expect(no.addBusinessDays(toLocalDate('2026-12-23'), 1)).toBe('2026-12-28');
  });

  it('refuses an unknown country', () => {
    expect(() => businessCalendar('QQ')).toThrow(/no holiday calendar/);
  });
});

describe('account identifiers', () => {
  it('accepts valid IBANs in any spacing and case', () => {
    expect(checkIban('no93 8601 1117 947')).toEqual({ ok: true, iban: 'NO9386011117947' });
    expect(checkIban('DE89370400440532013000').ok).toBe(true);
  });

  it('explains why an IBAN is wrong', () => {
    const typo = checkIban('NO9386011117948');
    expect(typo.ok).toBe(false);
    if (!typo.ok) expect(typo.message).toMatch(/mod-97|check digit/);
    const short = checkIban('NO938601111794');
    if (!short.ok) expect(short.message).toMatch(/length/);
    else throw new Error('expected a length error');
  });

  it('checks BIC form', () => {
    expect(checkBic('DNBANOKK')).toBe(true);
    expect(checkBic('DNBANOKKXXX')).toBe(true);
    expect(checkBic('DNB')).toBe(false);
  });
});
