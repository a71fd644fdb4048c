// `npm run bench:figures -- FILE.json [LATER.json …]`: writes the current figures into
// docs/performance.md from a bench run's JSON (`npm run bench -- --json > FILE.json`), between the
// page's figures markers: the run's machine line and one table — each row's figure beside its
// baseline, its aim from bench/aims.ts and whether it met it. A later run of some modules (`--only`)
// gives those modules' rows, with its own machine line named beside them: a module that failed in
// the long run is measured again without repeating the hour. The page's figures are then runs',
// never a table copied by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AIMS, judge } from './aims.js';
import type { BenchRow } from './row.js';
import { fmt, markdownTable } from './table.js';

export const FIGURES_START = '<!-- figures:start -->';
export const FIGURES_END = '<!-- figures:end -->';

/** What `npm run bench -- --json` prints: one run, or with --scaling every scale's run. */
export interface BenchJson {
  machine: string;
  date: string;
  quick?: boolean;
  scale?: number;
  rows?: BenchRow[];
  runs?: { scale: number; rows: BenchRow[] }[];
  /** Modules that threw during the run (their rows are missing). */
  failed?: { module: string; scale: number; error: string }[];
  /** The modules the run ran (`--only`, or every one). */
  modules?: string[];
}

/**
 * Each row's place in the table: a row with an aim where bench/aims.ts has it (the modules'
 * order), a row without one just after the row before it in its own run (payments-floor after
 * payments-single, camt053-xmlbuilder2-cb after camt053).
 */
function placed(rows: readonly BenchRow[]): { row: BenchRow; place: number }[] {
  const order = Object.keys(AIMS);
  let last = -1;
  return rows.map((row) => {
    last = order.includes(row.key) ? order.indexOf(row.key) : last + 0.001;
    return { row, place: last };
  });
}

/**
 * The first run with the rows of later runs put in: a later run's rows replace those of the same
 * key, and its modules are no longer failed. A row's aim may compare it with another row of its
 * module (payments-single with payments-floor), so whole modules come from one run.
 */
export function combinedRun(first: BenchJson, later: readonly BenchJson[]): { json: BenchJson; notes: string[] } {
  let rows = placed(chosenRun(first).rows);
  let failed = first.failed ?? [];
  const notes: string[] = [];
  for (const run of later) {
    const added = placed(chosenRun(run).rows);
    const keys = new Set(added.map(({ row }) => row.key));
    rows = [...rows.filter(({ row }) => !keys.has(row.key)), ...added];
    const ran = new Set(run.modules ?? []);
    failed = [...failed.filter((f) => !ran.has(f.module)), ...(run.failed ?? [])];
    if (added.length > 0)
      notes.push(
        `Rows ${added.map(({ row }) => `\`${row.key}\``).join(', ')} from a later run: \`${run.machine}; ${run.date}\`.`,
      );
  }
  const sorted = rows
    .map((p, i) => ({ ...p, i }))
    .sort((a, b) => a.place - b.place || a.i - b.i)
    .map((p) => p.row);
  const { runs: _runs, ...rest } = first;
  return { json: { ...rest, rows: sorted, ...(failed.length > 0 ? { failed } : { failed: undefined }) }, notes };
}

/** The run the table shows: the run itself, or the largest scale of a --scaling run. */
function chosenRun(json: BenchJson): { rows: BenchRow[]; sizes: string } {
  if (json.rows) {
    const sizes = json.quick
      ? 'quick sizes (`--quick`): a smoke run, which shows that every row works, not what settle does at full size'
      : json.scale === undefined || json.scale === 1
        ? 'full size (scale 1)'
        : `scale ${json.scale} (every full size × ${json.scale})`;
    return { rows: json.rows, sizes };
  }
  const largest = [...(json.runs ?? [])].sort((a, b) => b.scale - a.scale)[0];
  if (!largest) throw new Error('the JSON holds no rows: is it the output of `npm run bench -- --json`?');
  return { rows: largest.rows, sizes: `scale ${largest.scale}, the largest of a --scaling run` };
}

/**
 * The JSON of a bench run, read from what `npm run bench -- --json > FILE` wrote: npm prints its
 * own lines (the script it runs) on stdout before the bench's JSON, so they are skipped.
 */
export function parseBenchJson(text: string): BenchJson {
  const start = /^\{/m.exec(text)?.index;
  if (start === undefined) throw new Error('no JSON in the file: is it the output of `npm run bench -- --json`?');
  return JSON.parse(text.slice(start)) as BenchJson;
}

const cell = (text: string): string => text.replaceAll('|', '\\|');

/** The Markdown that goes between the markers: the machine line, the table, the aims left out. */
export function figuresBlock(first: BenchJson, later: readonly BenchJson[] = []): string {
  const sizes = chosenRun(first).sizes;
  const { json, notes } = combinedRun(first, later);
  const rows = json.rows!;
  const header = ['key', 'what', 'size', 'figure', 'baseline', 'ratio', 'aim', 'met?'];
  const body = rows.map((r) => {
    const aim = AIMS[r.key];
    return [
      `\`${r.key}\``,
      r.name,
      `${r.size.toLocaleString('en')} ${r.unit}`,
      r.rate === 0 ? 'not measured' : `${fmt(r.rate)} ${r.unit}/s`,
      `${r.baselineName}: ${fmt(r.baselineRate)} ${r.unit}/s`,
      r.rate === 0 ? '' : (r.rate / r.baselineRate).toFixed(2),
      aim?.text ?? '—',
      judge(r, rows, aim).text || '—',
    ].map(cell);
  });
  const measured = new Set(rows.map((r) => r.key));
  const missing = Object.entries(AIMS).filter(([key]) => !measured.has(key));
  return [
    `Machine: \`${json.machine}; ${json.date}\``,
    '',
    ...notes.flatMap((n) => [n, '']),
    `Sizes: ${sizes}.`,
    '',
    markdownTable(header, body),
    ...(missing.length > 0
      ? ['', `Aims with no row in this run: ${missing.map(([key, aim]) => `\`${key}\` (${aim.text})`).join('; ')}.`]
      : []),
    ...(json.failed?.length
      ? ['', `Modules that failed in this run: ${json.failed.map((f) => `\`${f.module}\` (${f.error})`).join('; ')}.`]
      : []),
  ].join('\n');
}

/** The page with its figures replaced; the markers must be there, once each and in order. */
export function withFigures(page: string, block: string): string {
  const start = page.indexOf(FIGURES_START);
  const end = page.indexOf(FIGURES_END);
  if (start === -1 || end < start || page.indexOf(FIGURES_START, start + 1) !== -1)
    throw new Error(`the page needs one ${FIGURES_START} … ${FIGURES_END} pair, in that order`);
  return `${page.slice(0, start + FIGURES_START.length)}\n${block}\n${page.slice(end)}`;
}

/**
 * The runs behind the page's table, kept beside it (docs/performance-runs.json): the long run and
 * the later ones put in, so a module measured again later joins the same table without the hour
 * of a whole run. Given as the first file, it stands for those runs; the files after it are added.
 */
export interface KeptRuns {
  kept: 'settle bench runs';
  first: BenchJson;
  later: BenchJson[];
}

/** The runs a table is made of: the kept runs (when the first file is them) and the files after. */
export function runsOf(texts: readonly string[]): KeptRuns {
  const [head, ...rest] = texts;
  if (head === undefined) throw new Error('no run given');
  const given = rest.map(parseBenchJson);
  const parsed = JSON.parse(head.slice(/^\{/m.exec(head)?.index ?? 0)) as Partial<KeptRuns>;
  if (parsed.kept === 'settle bench runs' && parsed.first !== undefined)
    return { kept: 'settle bench runs', first: parsed.first, later: [...(parsed.later ?? []), ...given] };
  return { kept: 'settle bench runs', first: parseBenchJson(head), later: given };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write(
      'usage: npm run bench:figures -- FILE.json [LATER.json …]   (from `npm run bench -- --json > FILE.json`;\n' +
        '       FILE.json may be docs/performance-runs.json, the runs behind the page, to add a later run to them)\n',
    );
    process.exit(2);
  }
  const page = fileURLToPath(new URL('../docs/performance.md', import.meta.url));
  const keptFile = fileURLToPath(new URL('../docs/performance-runs.json', import.meta.url));
  const runs = runsOf(files.map((f) => readFileSync(f, 'utf8')));
  writeFileSync(page, withFigures(readFileSync(page, 'utf8'), figuresBlock(runs.first, runs.later)));
  writeFileSync(keptFile, JSON.stringify(runs, null, 1) + '\n');
  process.stdout.write(
    `docs/performance.md: the figures of ${runs.first.date}${runs.later.map((r) => ` and ${r.date}`).join('')} written; the runs kept in docs/performance-runs.json\n`,
  );
}
