// How cost grows with size (`npm run bench -- --scaling`): the rows of runs at several scales,
// matched by key, and for each key what happens between the smallest and the largest size.
// Rates are units per second, so if the time grows as size^k, the rate grows as size^(1-k):
// a rate that stays put (ratio ≈ 1) means cost linear in size, a falling rate means each unit
// costs more in a bigger run (k > 1), a rising one that fixed costs (start-up, a cold JIT, the
// latency of a few requests) weighed on the small run (k < 1).
import type { BenchRow } from './row.js';
import { markdownTable, mib, short } from './table.js';

export interface ScaledRun {
  scale: number;
  rows: BenchRow[];
}

export interface GrowthPoint {
  scale: number;
  name: string;
  size: number;
  rate: number;
  baselineRate: number;
  ratio: number;
  peakRssBytes: number;
}

export interface Growth {
  key: string;
  unit: string;
  /** One per scale at which the key was measured, smallest scale first. */
  points: GrowthPoint[];
  /** Rate at the largest size ÷ rate at the smallest (null when not comparable). */
  rateGrowth: number | null;
  /** k in time ∝ size^k between the smallest and the largest size (1 = linear). */
  timeExponent: number | null;
  /** Extra peak RSS per million units between the smallest and the largest size, in MiB. */
  rssMiBPerMillion: number | null;
  /** The last column of the table, in words. */
  verdict: string;
}

/**
 * k is reported as linear when it is within what run-to-run noise can explain: a rate 25 % off
 * (common on a shared machine), which moves k by ln 1.25 ÷ ln(size ratio) — a lot between
 * close sizes, little between sizes 100× apart — and never less than 0.1.
 */
const RATE_NOISE = 1.25;
const MIN_LINEAR_TOLERANCE = 0.1;

export function growth(runs: readonly ScaledRun[]): Growth[] {
  const ordered = [...runs].sort((a, b) => a.scale - b.scale);
  const keys = [...new Set(ordered.flatMap((run) => run.rows.map((r) => r.key)))];
  return keys.map((key) => {
    const points: GrowthPoint[] = [];
    let unit = '';
    for (const run of ordered) {
      const row = run.rows.find((r) => r.key === key);
      if (!row) continue;
      unit = row.unit;
      points.push({
        scale: run.scale,
        name: row.name,
        size: row.size,
        rate: row.rate,
        baselineRate: row.baselineRate,
        ratio: row.rate / row.baselineRate,
        peakRssBytes: row.peakRssBytes,
      });
    }
    return { key, unit, points, ...compare(points, unit) };
  });
}

function compare(
  points: readonly GrowthPoint[],
  unit: string,
): Pick<Growth, 'rateGrowth' | 'timeExponent' | 'rssMiBPerMillion' | 'verdict'> {
  const measured = points.filter((p) => p.rate > 0 && Number.isFinite(p.rate));
  const first = measured[0];
  const last = measured.at(-1);
  if (!first || !last || last.size <= first.size) {
    return {
      rateGrowth: null,
      timeExponent: null,
      rssMiBPerMillion: null,
      verdict: measured.length === 0 ? 'not measured' : 'n/a: one size only',
    };
  }
  const rateGrowth = last.rate / first.rate;
  const timeExponent = 1 - Math.log(rateGrowth) / Math.log(last.size / first.size);
  const rssMiBPerMillion =
    first.peakRssBytes > 0 && last.peakRssBytes > 0
      ? ((last.peakRssBytes - first.peakRssBytes) / 2 ** 20 / (last.size - first.size)) * 1e6
      : null;
  const tolerance = Math.max(MIN_LINEAR_TOLERANCE, Math.log(RATE_NOISE) / Math.log(last.size / first.size));
  const shape =
    Math.abs(timeExponent - 1) <= tolerance
      ? '≈ linear'
      : timeExponent > 1
        ? 'worse than linear'
        : 'better than linear: fixed costs weigh on the small run';
  // The absolute change beside the slope: between two small sizes a few MiB of noise make a huge slope.
  const rss =
    rssMiBPerMillion === null
      ? 'RSS n/a'
      : `RSS ${signed((last.peakRssBytes - first.peakRssBytes) / 2 ** 20, 0)} MiB from ${first.size.toLocaleString('en')} to ${last.size.toLocaleString('en')} (${signed(rssMiBPerMillion, 1)} MiB per million ${unit})`;
  return {
    rateGrowth,
    timeExponent,
    rssMiBPerMillion,
    verdict: `rate ×${rateGrowth.toFixed(2)}, time ∝ n^${timeExponent.toFixed(2)} (${shape}); ${rss}`,
  };
}

/**
 * One line per key; one column per scale holding "size: rate vs baseline rate (per second) =
 * ratio, peak RSS"; and the growth verdict last.
 */
export function growthTable(list: readonly Growth[], scales: readonly number[]): string {
  const ordered = [...scales].sort((a, b) => a - b);
  const header = ['key', 'unit', ...ordered.map((s) => `scale ${s}`), 'growth (largest vs smallest size)'];
  const body = list.map((g) => [
    g.key,
    g.unit,
    ...ordered.map((s) => {
      const p = g.points.find((point) => point.scale === s);
      if (!p) return '—';
      if (p.rate <= 0) return `${p.size.toLocaleString('en')}: not measured`;
      return `${p.size.toLocaleString('en')}: ${short(p.rate)} vs ${short(p.baselineRate)}/s = ${p.ratio.toFixed(2)}, ${mib(p.peakRssBytes)}`;
    }),
    g.verdict,
  ]);
  return markdownTable(header, body);
}

/** "+1,234.5" / "−3.0": a sign always, and no "−0" for what rounds to zero. */
function signed(n: number, digits: number): string {
  const rounded = Number(n.toFixed(digits));
  return `${rounded < 0 ? '−' : '+'}${Math.abs(rounded).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;
}
