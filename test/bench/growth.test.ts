// The pure parts of `npm run bench`: its command line, the size scaling and the growth verdict
// (the benchmarks themselves are run by hand, never in the test suite: they take minutes).
import { describe, expect, it } from 'vitest';
import { parseBenchArgs, UsageError } from '../../bench/args.js';
import { growth, growthTable } from '../../bench/growth.js';
import { scaledSize, type BenchRow } from '../../bench/row.js';

const MiB = 2 ** 20;

function row(key: string, size: number, rate: number, peakMiB: number): BenchRow {
  return {
    key,
    name: `${key}, ${size}`,
    size,
    unit: 'lines',
    rate,
    baselineName: 'raw',
    baselineRate: rate * 2,
    peakRssBytes: peakMiB * MiB,
  };
}

describe('bench command line', () => {
  it('defaults to one run at full size', () => {
    expect(parseBenchArgs([])).toEqual({
      quick: false,
      json: false,
      help: false,
      scale: 1,
      modules: [
        'startup',
        'intake',
        'controls',
        'camt053',
        'writers',
        'reconcile',
        'history',
        'payments',
        'bureau',
        'console',
        'board',
        'templates',
      ],
    });
  });

  it('runs only the modules --only names, in table order', () => {
    expect(parseBenchArgs(['--only', 'payments,reconcile']).modules).toEqual(['reconcile', 'payments']);
    expect(() => parseBenchArgs(['--only', 'reconcile,payment'])).toThrow('got "payment"');
    expect(() => parseBenchArgs(['--only'])).toThrow(UsageError);
  });

  it('reads --scale in both spellings', () => {
    expect(parseBenchArgs(['--scale', '0.1', '--json'])).toMatchObject({ scale: 0.1, json: true });
    expect(parseBenchArgs(['--scale=0.05']).scale).toBe(0.05);
  });

  it('gives --scaling the three default scales, and --scales its own, sorted and implying --scaling', () => {
    expect(parseBenchArgs(['--scaling']).scales).toEqual([0.01, 0.1, 1]);
    expect(parseBenchArgs(['--scaling', '--scales', '0.03,0.01']).scales).toEqual([0.01, 0.03]);
    expect(parseBenchArgs(['--scales=0.01,0.1']).scales).toEqual([0.01, 0.1]);
  });

  it.each([
    [['--scale'], /--scale needs a positive number/],
    [['--scale', '0'], /--scale needs a positive number/],
    [['--scale', 'big'], /--scale needs a positive number/],
    [['--scales', '0.1'], /at least two different scales/],
    [['--scales', '0.1,0.1'], /at least two different scales/],
    [['--scales', '0.1,-1'], /--scales needs a positive number/],
    [['--quick', '--scale', '0.1'], /--quick and --scale cannot be combined/],
    [['--quick', '--scaling'], /--quick and --scaling cannot be combined/],
    [['--scale', '0.1', '--scales', '0.01,0.1'], /--scale and --scaling cannot be combined/],
    [['--sacle', '0.1'], /unknown argument "--sacle"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(UsageError);
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});

describe('scaledSize', () => {
  it('multiplies and rounds to whole steps', () => {
    expect(scaledSize(1_000_000, 1)).toBe(1_000_000);
    expect(scaledSize(1_000_000, 0.03, { step: 10 })).toBe(30_000);
    expect(scaledSize(100_000, 0.015, { step: 1000 })).toBe(2000);
    expect(scaledSize(20_000, 0.037, { step: 100 })).toBe(700);
  });

  it('never goes below the minimum, which defaults to one step', () => {
    expect(scaledSize(100_000, 0.001, { step: 1000 })).toBe(1000);
    expect(scaledSize(20_000, 0.01, { step: 100, min: 400 })).toBe(400);
    expect(scaledSize(250, 0.01, { min: 10 })).toBe(10);
  });
});

describe('growth with size', () => {
  it('matches rows by key across scales and calls a steady rate linear', () => {
    const [g] = growth([
      { scale: 1, rows: [row('intake-csv', 1_000_000, 98_000, 120)] },
      { scale: 0.01, rows: [row('intake-csv', 10_000, 100_000, 60)] },
    ]);
    expect(g!.points.map((p) => p.size)).toEqual([10_000, 1_000_000]);
    expect(g!.rateGrowth).toBeCloseTo(0.98, 5);
    expect(g!.timeExponent).toBeCloseTo(1 - Math.log(0.98) / Math.log(100), 5);
    // (120 − 60) MiB over 990,000 lines.
    expect(g!.rssMiBPerMillion).toBeCloseTo(60 / 0.99, 5);
    expect(g!.verdict).toBe(
      'rate ×0.98, time ∝ n^1.00 (≈ linear); RSS +60 MiB from 10,000 to 1,000,000 (+60.6 MiB per million lines)',
    );
  });

  it('tells a falling rate (cost per unit grows) from a rising one (fixed costs)', () => {
    const list = growth([
      { scale: 0.01, rows: [row('quadratic', 100, 1000, 50), row('startup', 100, 1000, 50)] },
      { scale: 0.1, rows: [row('quadratic', 1000, 100, 50), row('startup', 1000, 5000, 50)] },
    ]);
    expect(list[0]!.timeExponent).toBeCloseTo(2, 10);
    expect(list[1]!.timeExponent).toBeCloseTo(1 - Math.log10(5), 10);
    expect(list[0]!.verdict).toContain('time ∝ n^2.00 (worse than linear)');
    expect(list[1]!.verdict).toContain('(better than linear: fixed costs weigh on the small run)');
    expect(list[0]!.verdict).toContain('RSS +0 MiB from 100 to 1,000 (+0.0 MiB per million lines)');
  });

  it('allows more noise between close sizes than between far ones', () => {
    const list = growth([
      { scale: 0.01, rows: [row('close', 1000, 100, 50), row('far', 1000, 100, 50)] },
      { scale: 0.02, rows: [row('close', 2000, 82, 50)] },
      { scale: 1, rows: [row('far', 100_000, 80, 50)] },
    ]);
    // Rate 18–20 % down: k = 1.29 over 2× (tolerance 0.32), k = 1.05 over 100× (tolerance 0.1).
    expect(list[0]!.verdict).toContain('time ∝ n^1.29 (≈ linear)');
    expect(list[1]!.verdict).toContain('time ∝ n^1.05 (≈ linear)');
    const [worse] = growth([
      { scale: 0.01, rows: [row('far', 1000, 100, 50)] },
      { scale: 1, rows: [row('far', 100_000, 60, 50)] },
    ]);
    expect(worse!.verdict).toContain('time ∝ n^1.11 (worse than linear)');
  });

  it('shows memory that shrank with a minus sign, and the slope beside the absolute change', () => {
    const [g] = growth([
      { scale: 0.01, rows: [row('camt053', 10_000, 100, 102.4)] },
      { scale: 1, rows: [row('camt053', 1_000_000, 100, 100)] },
    ]);
    expect(g!.verdict).toBe(
      'rate ×1.00, time ∝ n^1.00 (≈ linear); RSS −2 MiB from 10,000 to 1,000,000 (−2.4 MiB per million lines)',
    );
  });

  it('says so when a key cannot be compared: not measured, one size, no RSS', () => {
    const skipped: BenchRow = { ...row('payments-processes', 400, 0, 0), baselineRate: 1 };
    const list = growth([
      { scale: 0.01, rows: [skipped, row('clamped', 10, 100, 40), { ...row('no-rss', 100, 100, 0) }] },
      { scale: 0.1, rows: [skipped, row('clamped', 10, 110, 40), { ...row('no-rss', 1000, 100, 0) }] },
    ]);
    expect(list.map((g) => g.verdict)).toEqual([
      'not measured',
      'n/a: one size only',
      'rate ×1.00, time ∝ n^1.00 (≈ linear); RSS n/a',
    ]);
    expect(list[2]!.rssMiBPerMillion).toBeNull();
  });

  it('prints one line per key, a cell per scale, and a dash where a key is missing', () => {
    const list = growth([
      { scale: 0.01, rows: [row('camt053', 10_000, 1_234_567, 70)] },
      { scale: 0.1, rows: [row('camt053', 100_000, 1_200_000, 71), row('late', 5, 50, 1)] },
    ]);
    const lines = growthTable(list, [0.1, 0.01]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      /^\| key +\| unit +\| scale 0\.01 +\| scale 0\.1 +\| growth \(largest vs smallest size\) +\|$/,
    );
    expect(lines[2]).toContain('| 10,000: 1.23M vs 2.47M/s = 0.50, 70 MiB');
    expect(lines[2]).toContain('| 100,000: 1.2M vs 2.4M/s = 0.50, 71 MiB');
    expect(lines[3]).toMatch(
      /^\| late +\| lines +\| — +\| 5: 50\.0 vs 100\/s = 0\.50, 1 MiB +\| n\/a: one size only +\|$/,
    );
  });
});
