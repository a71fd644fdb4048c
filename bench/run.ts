// `npm run bench [-- --quick] [-- --json]`: runs every benchmark and prints one table, each
// figure beside its baseline measured in the same run (docs/performance.md explains the rows).
import { cpus, totalmem } from 'node:os';
import type { Bench, BenchRow } from './row.js';

const MODULES = ['./intake.js', './camt053.js', './reconcile.js', './payments.js'];

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const json = args.has('--json');

const rows: BenchRow[] = [];
for (const path of MODULES) {
  const module = (await import(path)) as { bench: Bench };
  if (!json) process.stderr.write(`bench: running ${path}${quick ? ' (quick)' : ''}…\n`);
  rows.push(...(await module.bench({ quick })));
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
if (json) {
  process.stdout.write(JSON.stringify({ machine, quick, rows: rows.map((r) => ({ ...r, ratio: r.rate / r.baselineRate })) }, null, 2) + '\n');
} else {
  process.stdout.write(`\n${machine}${quick ? ' (quick sizes)' : ''}\n\n`);
  process.stdout.write(table(rows) + '\n');
}

function table(list: BenchRow[]): string {
  const header = ['benchmark', 'size', 'rate', 'baseline', 'baseline rate', 'ratio', 'peak RSS', 'notes'];
  const body = list.map((r) => [
    r.name,
    r.size.toLocaleString('en'),
    `${fmt(r.rate)} ${r.unit}/s`,
    r.baselineName,
    `${fmt(r.baselineRate)} ${r.unit}/s`,
    (r.rate / r.baselineRate).toFixed(2),
    `${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB`,
    r.notes ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ') + ' |';
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : n.toFixed(1);
}
