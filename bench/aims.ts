// Every benchmark row's aim, in one place: `npm run bench` prints it beside the row and says
// whether the row met it, and `npm run bench:figures` puts both into docs/performance.md. A row
// measures; this table says what it should reach (the open performance issue's aims, and the
// earlier ones it left standing), so an aim changes here and nowhere else.
import type { Aim, BenchRow } from './row.js';

const peak512 = { peakMiB: 512 };
/** The proofs of the rows that run several processes: nothing twice, nothing lost. */
const exactlyOnce = { sentTwice: 0, lost: 0 };
const bureauProofs = { ...exactlyOnce, entriesDoubled: 0, entriesLost: 0 };

export const AIMS: Readonly<Record<string, Aim>> = {
  'startup-version': { text: '≤ 1.2× the CPU of node -e 0', costAtMost: 1.2 },
  'startup-validate': { text: '≤ 2× the CPU of its baseline', costAtMost: 2 },
  'intake-csv': { text: '≥ 1.2× csv-parse alone; peak ≤ 512 MiB', rateAtLeast: 1.2, figuresAtMost: peak512 },
  'intake-csv-quoted': { text: '≥ 0.75× csv-parse alone', rateAtLeast: 0.75 },
  'intake-pain001': { text: '≥ 0.75× saxes alone; peak ≤ 512 MiB', rateAtLeast: 0.75, figuresAtMost: peak512 },
  'pickup-csv': { text: 'peak ≤ 512 MiB', figuresAtMost: peak512 },
  'pickup-pain001': { text: 'peak ≤ 512 MiB', figuresAtMost: peak512 },
  'pickup-controls': { text: '≤ 1.2× the time with the controls off', costAtMost: 1.2 },
  camt053: { text: '≥ 0.8× the string template', rateAtLeast: 0.8 },
  camt054: { text: '≥ 0.8× the string template', rateAtLeast: 0.8 },
  pain002: { text: '≥ 0.8× the string template', rateAtLeast: 0.8 },
  reconcile: {
    text: "≤ 1.25× the hash join's time; peak ≤ 1.1× the join's",
    costAtMost: 1.25,
    figuresAtMost: { peakRatio: 1.1 },
  },
  'history-reconcile-1y': { text: 'flat: ≥ 0.7× with no history', rateAtLeast: 0.7 },
  'history-reconcile-5y': { text: 'flat: ≥ 0.7× with no history', rateAtLeast: 0.7 },
  'history-export-1y': { text: 'flat: ≥ 0.7× with no history', rateAtLeast: 0.7 },
  'history-export-5y': { text: 'flat: ≥ 0.7× with no history', rateAtLeast: 0.7 },
  'payments-single': { text: '≤ 1.2× the time of payments-floor', against: 'payments-floor', costAtMost: 1.2 },
  'payments-processes-1': { text: 'no payment twice or lost', figuresAtMost: exactlyOnce },
  'payments-processes-2': { text: 'no payment twice or lost', figuresAtMost: exactlyOnce },
  'payments-processes-4': { text: 'no payment twice or lost', figuresAtMost: exactlyOnce },
  'bureau-first-1': { text: 'nothing twice, doubled or lost', figuresAtMost: bureauProofs },
  'bureau-first-2': { text: 'nothing twice, doubled or lost', figuresAtMost: bureauProofs },
  'bureau-first-4': { text: 'nothing twice, doubled or lost', figuresAtMost: bureauProofs },
  'bureau-1': { text: 'nothing twice, doubled or lost', figuresAtMost: bureauProofs },
  'bureau-2': {
    text: "≥ 1.8× bureau-1's throughput; nothing twice, doubled or lost",
    against: 'bureau-1',
    rateAtLeast: 1.8,
    figuresAtMost: bureauProofs,
  },
  'bureau-4': {
    text: "≥ 3× bureau-1's throughput; nothing twice, doubled or lost",
    against: 'bureau-1',
    rateAtLeast: 3,
    figuresAtMost: bureauProofs,
  },
  'console-search': { text: 'p95 of each kind ≤ 200 ms', figuresAtMost: { p95Ms: 200 } },
  'bureau-board': { text: 'the board page ≤ 200 ms at 1,000 companies', figuresAtMost: { ms: 200 } },
};

export function aimOf(key: string): Aim | undefined {
  return AIMS[key];
}

/** Whether a row met its aim, and the figures that decided it, e.g. "no: 1.66× the cost". */
export interface Verdict {
  met: boolean | undefined;
  text: string;
}

const times = (n: number): string => `${n.toFixed(2)}×`;

/** The aim of `row`, judged with the other rows of the same run (for `against`). */
export function judge(row: BenchRow, rows: readonly BenchRow[], aim = aimOf(row.key)): Verdict {
  if (aim === undefined) return { met: undefined, text: '' };
  if (row.rate === 0) return { met: false, text: 'not measured (see the notes)' };
  const said: string[] = [];
  let met = true;
  if (aim.rateAtLeast !== undefined || aim.costAtMost !== undefined) {
    const reference = aim.against === undefined ? row.baselineRate : rows.find((r) => r.key === aim.against)?.rate;
    if (reference === undefined || reference === 0)
      return { met: undefined, text: `no measured ${aim.against} row to compare` };
    const ratio = row.rate / reference;
    const cost = reference / row.rate;
    if (aim.rateAtLeast !== undefined) {
      met &&= ratio >= aim.rateAtLeast;
      said.push(times(ratio));
    }
    if (aim.costAtMost !== undefined) {
      met &&= cost <= aim.costAtMost;
      said.push(`${times(cost)} the cost`);
    }
  }
  const figures: Record<string, number> = { ...row.figures };
  if (row.peakRssBytes > 0) figures.peakMiB = Math.round(row.peakRssBytes / 2 ** 20);
  for (const [name, most] of Object.entries(aim.figuresAtMost ?? {})) {
    const value = figures[name];
    met &&= value !== undefined && value <= most;
    said.push(`${name} ${value === undefined ? 'not measured' : +value.toFixed(2)}`);
  }
  return { met, text: `${met ? 'yes' : 'no'}: ${said.join(', ')}` };
}
