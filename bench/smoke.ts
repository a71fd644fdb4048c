// `npm run bench:smoke`: every benchmark module at a thousandth of its size (start-up at its quick
// size, since it has no size), run by CI after the tests. Nothing here times anything: it checks
// that each module still runs to its end and that the proofs the rows carry still hold (no
// payment twice or lost, no statement entry doubled or lost, writers byte-identical to their
// templates), so a module broken by a change is found by the commit that broke it, not an hour
// into the next full-size run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AIMS } from './aims.js';
import type { BenchRow } from './row.js';

const RUN = fileURLToPath(new URL('./run.ts', import.meta.url));
/** The figures that are proofs, not measurements: each must be 0 at any size. */
const PROOFS = ['sentTwice', 'lost', 'entriesDoubled', 'entriesLost'] as const;
/** Rows measured only at the normal scale (bench/startup.ts): checked in the quick run. */
const STARTUP = ['startup-version', 'startup-validate'];

/** What is wrong with a smoke run's rows: expected rows missing, proofs broken, a proof note saying NO. */
export function smokeProblems(rows: readonly BenchRow[], expected: readonly string[]): string[] {
  const problems: string[] = [];
  const keys = new Set(rows.map((r) => r.key));
  for (const key of expected) if (!keys.has(key)) problems.push(`${key}: no row (its module stopped early?)`);
  for (const row of rows) {
    if (!(row.rate > 0)) problems.push(`${row.key}: not measured (rate ${row.rate})`);
    for (const proof of PROOFS) {
      const value = row.figures?.[proof];
      if (value !== undefined && value !== 0) problems.push(`${row.key}: ${proof} ${value}`);
    }
    // The notes answer each proof "yes" or "NO" (bench/camt053.ts, bench/payments.ts, …).
    if (row.notes !== undefined && /:\s*NO\b/.test(row.notes)) problems.push(`${row.key}: ${row.notes}`);
  }
  return problems;
}

function run(args: readonly string[]): BenchRow[] {
  const child = spawnSync(process.execPath, ['--import', 'tsx', RUN, ...args, '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const json = child.stdout.slice(child.stdout.indexOf('{'));
  if (child.status !== 0) throw new Error(`npm run bench -- ${args.join(' ')} exited ${child.status}`);
  return (JSON.parse(json) as { rows: BenchRow[] }).rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const scaled = run(['--scale', '0.001']);
  const startup = run(['--only', 'startup', '--quick']);
  const problems = [
    ...smokeProblems(
      scaled,
      Object.keys(AIMS).filter((k) => !STARTUP.includes(k)),
    ),
    ...smokeProblems(startup, STARTUP),
  ];
  for (const p of problems) process.stderr.write(`bench:smoke: ${p}\n`);
  process.stdout.write(
    `bench:smoke: ${scaled.length + startup.length} rows, ${problems.length === 0 ? 'every module ran and every proof holds' : `${problems.length} problem(s)`}\n`,
  );
  process.exitCode = problems.length === 0 ? 0 : 1;
}
