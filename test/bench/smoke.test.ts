// What `npm run bench:smoke` (bench/smoke.ts) calls broken: rows it expected and did not get, a
// row not measured, a proof figure above 0, a proof note answering NO.
import { describe, expect, it } from 'vitest';
import { smokeProblems } from '../../bench/smoke.js';
import type { BenchRow } from '../../bench/row.js';

const row = (key: string, extra: Partial<BenchRow> = {}): BenchRow => ({
  key,
  name: key,
  size: 10,
  unit: 'payments',
  rate: 100,
  baselineName: 'base',
  baselineRate: 100,
  peakRssBytes: 0,
  ...extra,
});

describe('smokeProblems', () => {
  it('passes rows that ran and whose proofs hold', () => {
    const rows = [
      row('payments-processes-2', { figures: { sentTwice: 0, lost: 0 } }),
      row('camt053', { notes: 'byte-identical to the template on 2,000 entries: yes' }),
    ];
    expect(smokeProblems(rows, ['payments-processes-2', 'camt053'])).toEqual([]);
  });

  it('names an expected row that is missing', () => {
    expect(smokeProblems([row('camt053')], ['camt053', 'bureau-2'])).toEqual([
      'bureau-2: no row (its module stopped early?)',
    ]);
  });

  it('names a row that was not measured and each broken proof', () => {
    const problems = smokeProblems(
      [
        row('reconcile', { rate: 0 }),
        row('bureau-4', { figures: { sentTwice: 0, lost: 0, entriesDoubled: 2, entriesLost: 0 } }),
        row('payments-single', { notes: 'wall 1 s; bank holds 999 lines once each: NO' }),
      ],
      [],
    );
    expect(problems).toEqual([
      'reconcile: not measured (rate 0)',
      'bureau-4: entriesDoubled 2',
      'payments-single: wall 1 s; bank holds 999 lines once each: NO',
    ]);
  });

  it('does not take a word that merely contains NO for a proof', () => {
    expect(smokeProblems([row('x', { notes: 'NOK amounts: NOTHING odd' })], [])).toEqual([]);
  });
});
