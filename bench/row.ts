// One row of the benchmark table printed by `npm run bench` (bench/run.ts): a measured figure
// beside its baseline measured in the same run, so the ratio means something on any machine.
export interface BenchRow {
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
  /** Peak resident set size of the measured run, in bytes. */
  peakRssBytes: number;
  /** Free-form notes (e.g. the aim, or a proof that outputs are identical). */
  notes?: string;
}

export type Bench = (options: { quick: boolean }) => Promise<BenchRow[]>;
