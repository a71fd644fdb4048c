// Plain-text formatting shared by the bench tables: Markdown pipe tables, so the output can be
// pasted into docs/performance.md as it is.
import { judge } from './aims.js';
import type { BenchRow } from './row.js';

export function markdownTable(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    '| ' + widths.map((w, i) => (cells[i] ?? '').padEnd(w)).join(' | ') + ' |';
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** A rate or count for people: whole numbers with separators from 100 up, one decimal below. */
export function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1);
}

/** Three significant figures with k/M, for the narrow cells of the growth table. */
export function short(n: number): string {
  if (n >= 1e6) return `${+(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e3) return `${+(n / 1e3).toPrecision(3)}k`;
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1);
}

export const mib = (bytes: number): string => (bytes > 0 ? `${(bytes / 2 ** 20).toFixed(0)} MiB` : 'n/a');

/** The table of one run: every row beside its baseline, its aim and whether it met it. */
export function rowTable(rows: readonly BenchRow[]): string {
  const header = [
    'key',
    'benchmark',
    'size',
    'rate',
    'baseline',
    'baseline rate',
    'ratio',
    'peak RSS',
    'aim',
    'met',
    'notes',
  ];
  const body = rows.map((r) => [
    r.key,
    r.name,
    r.size.toLocaleString('en'),
    `${fmt(r.rate)} ${r.unit}/s`,
    r.baselineName,
    `${fmt(r.baselineRate)} ${r.unit}/s`,
    (r.rate / r.baselineRate).toFixed(2),
    mib(r.peakRssBytes),
    r.aim?.text ?? '',
    judge(r, rows, r.aim).text,
    r.notes ?? '',
  ]);
  return markdownTable(header, body);
}
