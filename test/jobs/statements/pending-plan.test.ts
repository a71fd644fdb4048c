// The export's plan of what to write now (pure): delivered days skipped, runs of days, breaks,
// and the periods a stopped run numbered but did not record.
import { describe, expect, it } from 'vitest';
import { nextFloor, planPending, type PendingInput } from '../../../jobs/statements/pending-plan.js';
import { periodOf } from '../../../jobs/statements/periods.js';
import { FIRST_DAY } from '../../../src/store/index.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { StatementDay } from '../../../src/store/index.js';

const d = (n: number) => `2026-03-${String(n).padStart(2, '0')}` as LocalDate;
const day = (n: number, over: Partial<StatementDay> = {}): StatementDay => ({
  accountId: 'acc-1',
  day: d(n),
  currency: 'NOK',
  entryCount: 1,
  continuity: 'ok',
  ...over,
});
const input = (days: StatementDay[], over: Partial<PendingInput> = {}): PendingInput => ({
  days,
  exported: [],
  numbered: new Map(),
  settled: FIRST_DAY,
  skipEmpty: false,
  perRun: false,
  ...over,
});
const plan = (days: StatementDay[], over: Partial<PendingInput> = {}) => {
  const p = planPending(input(days, over));
  return { ...p, names: p.periods.map(periodOf) };
};

describe('planPending', () => {
  it('plans each not yet delivered day as its own period, in order', () => {
    const p = plan([day(1), day(2), day(3)], { exported: ['2026-03-02'] });
    expect(p.names).toEqual(['2026-03-01', '2026-03-03']);
  });

  it('leaves out days without entries when asked to', () => {
    const p = plan([day(1), day(2, { entryCount: 0 }), day(3)], { skipEmpty: true });
    expect(p.names).toEqual(['2026-03-01', '2026-03-03']);
  });

  it('puts consecutive days into one run period that never reaches across a delivered one', () => {
    const p = plan([day(1), day(2), day(3), day(4), day(5)], { perRun: true, exported: ['2026-03-03'] });
    expect(p.names).toEqual(['2026-03-01..2026-03-02', '2026-03-04..2026-03-05']);
  });

  it('stops at the first continuity break: the day and every later day wait', () => {
    const p = plan([day(1), day(2, { continuity: 'gap' }), day(3)]);
    expect(p.names).toEqual(['2026-03-01']);
    expect(p.broken?.day).toBe(d(2));
    expect(p.changed).toBeUndefined();
  });

  it('writes a numbered, unrecorded period again under its name, and later days in a period of their own', () => {
    const numbered = new Map([
      ['2026-03-01', 1],
      ['2026-03-02..2026-03-03', 2],
    ]);
    const p = plan([day(1), day(2), day(3), day(4), day(5)], { perRun: true, exported: ['2026-03-01'], numbered });
    expect(p.names).toEqual(['2026-03-02..2026-03-03', '2026-03-04..2026-03-05']);
    expect(p.changed).toBeUndefined();
  });

  it('holds an unfinished period whose days changed since it was numbered, and the days after it', () => {
    const numbered = new Map([['2026-03-02..2026-03-04', 1]]);
    // 03-03 had no entries when the period was numbered; it has now, 03-04 has none any more.
    const days = [day(1), day(2), day(3), day(4, { entryCount: 0 }), day(5)];
    const p = plan(days, { perRun: true, skipEmpty: true, numbered, exported: [] });
    expect(p.names).toEqual(['2026-03-01']);
    expect(p.changed).toEqual({ period: '2026-03-02..2026-03-04', day: d(2) });
  });

  it('does not write an unfinished period again once a break lies within it', () => {
    const numbered = new Map([['2026-03-01..2026-03-03', 1]]);
    const p = plan([day(1), day(2), day(3, { continuity: 'mismatch' }), day(4)], { perRun: true, numbered });
    expect(p.names).toEqual([]);
    expect(p.broken?.day).toBe(d(3));
    // Its days are no longer those it was numbered for (the break cut it short).
    expect(p.changed).toEqual({ period: '2026-03-01..2026-03-03', day: d(1) });
  });

  it('skips days before the settled day', () => {
    const p = plan([day(1), day(2), day(3)], { settled: d(2) });
    expect(p.names).toEqual(['2026-03-02', '2026-03-03']);
  });
});

describe('nextFloor', () => {
  const window = { from: d(1), lastComplete: d(5) };

  it('passes every delivered day: the next export starts after the last complete day', () => {
    const days = [day(1), day(2), day(3), day(4), day(5)];
    expect(nextFloor(input(days, { exported: ['2026-03-01'] }), ['2026-03-01', '2026-03-02..2026-03-05'], window)).toBe(
      d(6),
    );
  });

  it('stops at the first day not delivered: behind a break, or held by the writer', () => {
    const days = [day(1), day(2), day(3, { continuity: 'gap' }), day(4)];
    expect(nextFloor(input(days), ['2026-03-01', '2026-03-02'], window)).toBe(d(3));
    // A day delivered out of order (by hand) does not carry the floor past one still waiting.
    expect(nextFloor(input(days), ['2026-03-01', '2026-03-03', '2026-03-04'], window)).toBe(d(2));
  });

  it('passes days that need no file: empty ones when they get none, notification days before the settled day', () => {
    const days = [day(1), day(2, { entryCount: 0 }), day(3)];
    expect(nextFloor(input(days, { skipEmpty: true }), ['2026-03-01', '2026-03-03'], window)).toBe(d(6));
    expect(nextFloor(input(days, { skipEmpty: false }), ['2026-03-01', '2026-03-03'], window)).toBe(d(2));
    expect(nextFloor(input(days, { settled: d(3) }), ['2026-03-03'], window)).toBe(d(6));
  });

  it('stops at a period numbered and never recorded, but not at one wholly before the days read', () => {
    const numbered = new Map([
      ['2026-02-20', 7],
      ['2026-03-02..2026-03-03', 8],
    ]);
    expect(nextFloor(input([day(1)], { numbered }), ['2026-03-01'], window)).toBe(d(2));
    expect(nextFloor(input([day(1)], { numbered }), ['2026-03-01', '2026-03-02..2026-03-03'], window)).toBe(d(6));
  });
});
