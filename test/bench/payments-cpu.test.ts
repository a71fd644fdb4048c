// The payments row's notes give settle's CPU per 1,000 payments beyond the floor's client CPU
// (issue #54): the store's and the jobs' own work, from the two children's CPU of the same run.
import { describe, expect, it } from 'vitest';
import { againstFloor, medianRun, withCpuBeyondFloor } from '../../bench/payments.js';
import type { BenchRow } from '../../bench/row.js';

function row(key: string, size: number, more: Partial<BenchRow> = {}): BenchRow {
  return {
    key,
    name: key,
    size,
    unit: 'payments',
    rate: 1,
    baselineName: 'bound',
    baselineRate: 1,
    peakRssBytes: 0,
    ...more,
  };
}

describe("settle's CPU beyond the floor", () => {
  it('adds the difference per 1,000 payments to the single row and leaves the floor as it was', () => {
    const floor = row('payments-floor', 20_000, { figures: { cpuMs: 920 }, notes: 'floor notes' });
    const [single, same] = withCpuBeyondFloor(
      row('payments-single', 20_000, { figures: { cpuMs: 1360 }, notes: 'wall 3.72 s' }),
      floor,
    );
    expect(single.notes).toBe("wall 3.72 s; settle CPU per 1,000 payments beyond the floor's client CPU 22.0 ms");
    expect(same).toBe(floor);
  });

  it('says nothing when either side did not report its CPU or the sizes differ', () => {
    const single = row('payments-single', 20_000, { figures: { cpuMs: 1360 }, notes: 'n' });
    expect(withCpuBeyondFloor(single, row('payments-floor', 20_000))[0]).toBe(single);
    expect(withCpuBeyondFloor(single, row('payments-floor', 10_000, { figures: { cpuMs: 1 } }))[0]).toBe(single);
  });
});

describe('the least durable work against the floor', () => {
  it("gives its time as a multiple of the floor's and its CPU per 1,000 payments beyond the floor's", () => {
    const floor = row('payments-floor', 20_000, { rate: 8_000, figures: { cpuMs: 920 } });
    const durable = againstFloor(
      row('payments-durable', 20_000, { rate: 6_400, figures: { cpuMs: 1_020 }, notes: 'wall 3.13 s' }),
      floor,
    );
    expect(durable.notes).toBe(
      "wall 3.13 s; 1.25× the time of payments-floor; CPU per 1,000 payments beyond the floor's client CPU 5.0 ms",
    );
  });

  it('says nothing when either side did not report its CPU or the sizes differ', () => {
    const durable = row('payments-durable', 20_000, { figures: { cpuMs: 1_020 } });
    expect(againstFloor(durable, row('payments-floor', 20_000))).toBe(durable);
    expect(againstFloor(durable, row('payments-floor', 10_000, { figures: { cpuMs: 1 } }))).toBe(durable);
  });
});

describe('the part-1 rows as the median of runs in turns', () => {
  it("takes the run of median rate, and names every run's wall in the order run", () => {
    const runs = [
      row('payments-single', 100_000, { rate: 20_000, notes: 'first' }),
      row('payments-single', 100_000, { rate: 25_000, notes: 'second' }),
      row('payments-single', 100_000, { rate: 16_000, notes: 'third' }),
    ];
    const median = medianRun(runs);
    expect(median.rate).toBe(20_000);
    expect(median.notes).toBe(
      'first; median of 3 runs in turns with the other part-1 rows (walls in order 5.00 s / 4.00 s / 6.25 s)',
    );
  });

  it('takes the lower middle of an even number, and a single run as it is', () => {
    const one = row('payments-floor', 1_000, { rate: 500 });
    expect(medianRun([one])).toBe(one);
    expect(medianRun([row('k', 1_000, { rate: 300 }), row('k', 1_000, { rate: 200 })]).rate).toBe(200);
    expect(() => medianRun([])).toThrow('no run');
  });
});
