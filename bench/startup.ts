// Start-up of the command line (`npm run bench`): what `settle --version` and `settle validate`
// of a 1-line CSV (the figure issue #54 names) cost from process start to exit, beside what Node itself costs (`node -e 0`)
// and Node plus csv-parse reading the same file. The compiled CLI is measured (bin/settle.js →
// dist/, as installed), each run in a fresh process that reports its own CPU time and peak RSS
// (REPORTER); medians of several runs. The rate is starts per CPU second, so a ratio of 0.5 is
// twice the baseline's CPU (the aims: bench/aims.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvLines, write } from './intake-files.js';
import { median, type Bench, type BenchRow } from './row.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Preloaded into each run: at exit the process reports its own CPU time and peak RSS on stderr. */
const REPORTER = `data:text/javascript,${encodeURIComponent(`process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write('\\nBENCH-STARTUP ' + JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssBytes: u.maxRSS * 1024 }) + '\\n');
});`)}`;
const BIN = join(ROOT, 'bin', 'settle.js');
const LINES = 1;

interface Cost {
  cpuMs: number;
  maxRssBytes: number;
}

function once(args: readonly string[]): Cost {
  const run = spawnSync(process.execPath, ['--import', REPORTER, ...args], { cwd: ROOT, encoding: 'utf8' });
  const line = /BENCH-STARTUP (\{.*\})/.exec(run.stderr)?.[1];
  if (!line) throw new Error(`no figures from node ${args.join(' ')} (exit ${run.status}): ${run.stderr.slice(-500)}`);
  return JSON.parse(line) as Cost;
}

/** Runs the measured command and its baseline in turn, `runs` times each; medians of both. */
function paired(measured: readonly string[], baseline: readonly string[], runs: number): [Cost, Cost] {
  const a: Cost[] = [];
  const b: Cost[] = [];
  once(measured); // the first run pays for cold file caches
  for (let i = 0; i < runs; i++) {
    a.push(once(measured));
    b.push(once(baseline));
  }
  const summary = (costs: Cost[]): Cost => ({
    cpuMs: median(costs.map((c) => c.cpuMs)),
    maxRssBytes: median(costs.map((c) => c.maxRssBytes)),
  });
  return [summary(a), summary(b)];
}

const row = (
  key: string,
  name: string,
  baselineName: string,
  [measured, baseline]: [Cost, Cost],
  notes: string,
): BenchRow => ({
  key,
  name,
  size: 1,
  unit: 'starts',
  rate: 1000 / measured.cpuMs,
  baselineName,
  baselineRate: 1000 / baseline.cpuMs,
  peakRssBytes: measured.maxRssBytes,
  notes: `${notes}; CPU ${measured.cpuMs.toFixed(0)} ms vs ${baseline.cpuMs.toFixed(0)} ms, peak RSS ${(measured.maxRssBytes / 2 ** 20).toFixed(0)} vs ${(baseline.maxRssBytes / 2 ** 20).toFixed(0)} MiB`,
});

export const bench: Bench = async ({ quick, scale }) => {
  // A start-up does not grow with any size: measured once, at the normal scale.
  if (!quick && scale !== 1) return [];
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js')))
    throw new Error('bench/startup.ts measures the compiled CLI: run `npm run build` first');
  const runs = quick ? 3 : 9;
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-startup-'));
  try {
    const file = join(dir, 'payments.csv');
    await write(file, () => csvLines(LINES));
    const version = paired([BIN, '--version'], ['-e', '0'], runs);
    const validate = paired(
      [BIN, 'validate', '--as-of', '2026-01-05', file],
      [
        '--input-type=module',
        '-e',
        `import { parse } from 'csv-parse'; import { createReadStream } from 'node:fs'; let n = 0; for await (const _ of createReadStream(${JSON.stringify(file)}).pipe(parse({ from_line: 2 }))) n++;`,
      ],
      runs,
    );
    return [
      row(
        'startup-version',
        'settle --version',
        'node -e 0',
        version,
        '--version alone is answered before commander loads',
      ),
      row(
        'startup-validate',
        `settle validate, ${LINES.toLocaleString('en')}-line CSV`,
        'node + csv-parse, same file',
        validate,
        'the command line loads only what validate needs (no database, HTTP, SSH or metrics)',
      ),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
