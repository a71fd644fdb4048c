// One row of the benchmark table printed by `npm run bench` (bench/run.ts): a measured figure
// beside its baseline measured in the same run, so the ratio means something on any machine.
export interface BenchRow {
  /**
   * Stable identity of the row across sizes and runs (e.g. "intake-csv"), so `--scaling` can
   * put the same measurement at different sizes side by side; the name changes with the size.
   */
  key: string;
  /** e.g. "validate generic CSV, 1,000,000 lines" */
  name: string;
  /** Size of the input, e.g. 1_000_000 (lines, entries, payments). */
  size: number;
  unit: string;
  /** Throughput of settle's code, in `unit` per second. */
  rate: number;
  /** What it is compared with, e.g. "csv-parse alone". */
  baselineName: string;
  /** Throughput of the baseline, in `unit` per second. */
  baselineRate: number;
  /** Peak resident set size of the measured run, in bytes (0 when not measured). */
  peakRssBytes: number;
  /**
   * Figures an aim may name beside the ratio (bench/aims.ts), e.g. `{ p95Ms: 152.5 }` or the
   * proofs `{ sentTwice: 0, lost: 0 }`.
   */
  figures?: Readonly<Record<string, number>>;
  /** What the row should reach: attached from bench/aims.ts by the runner, never set by a module. */
  aim?: Aim;
  /** Free-form notes (e.g. a proof that outputs are identical, or what the time is made of). */
  notes?: string;
}

/**
 * What a row must reach. Each part given must hold. A ratio is this row's rate ÷ the reference
 * rate: the row's own baseline, or the rate of the row named by `against` in the same run.
 */
export interface Aim {
  /** For people, in the table: "≥ 1.2× csv-parse alone", "≤ 1.2× the time of payments-floor". */
  text: string;
  /** The key of the row whose rate is the reference, instead of this row's baseline. */
  against?: string;
  /** A throughput aim: the ratio must be at least this. */
  rateAtLeast?: number;
  /** A cost aim (time or CPU): 1 ÷ the ratio must be at most this. */
  costAtMost?: number;
  /**
   * The most each figure may be: the row's own `figures`, and `peakMiB` (its peak RSS in MiB).
   * A figure the row did not report fails the aim (it was not measured).
   */
  figuresAtMost?: Readonly<Record<string, number>>;
}

export interface BenchOptions {
  /** The small sizes of a smoke run; when set, `scale` is 1 and ignored. */
  quick: boolean;
  /** Multiplies every full size (1 = the sizes of the figures). */
  scale: number;
}

export type Bench = (options: BenchOptions) => Promise<BenchRow[]>;

/**
 * A full size multiplied by the scale, rounded to a multiple of `step` (so a module's own
 * constraints hold: whole bulks, a companion run a tenth the size, the data mix's period) and
 * never below `min` (below it a run measures start-up, not the work).
 */
export function scaledSize(
  full: number,
  scale: number,
  { step = 1, min = step }: { step?: number; min?: number } = {},
): number {
  return Math.max(min, Math.round((full * scale) / step) * step);
}

/** The middle value (the upper one of an even count): what paired, repeated runs report. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
