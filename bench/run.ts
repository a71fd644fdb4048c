// `npm run bench [-- --quick | --scale S | --scaling [--scales A,B]] [--only M,…] [-- --json]`: runs every
// benchmark and prints one table, each figure beside its baseline measured in the same run;
// with --scaling, every benchmark at several sizes and how its cost grows with size
// (docs/performance.md explains the rows and the method).
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { aimOf } from './aims.js';
import { parseBenchArgs, UsageError, USAGE, type BenchArgs } from './args.js';
import { growth, growthTable, type ScaledRun } from './growth.js';
import type { Bench, BenchRow } from './row.js';
import { rowTable } from './table.js';

let args: BenchArgs;
try {
  args = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

// The load average is part of the machine line: on a shared machine it says how much the
// neighbours were doing when the figures were taken.
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${osType()} ${release()}, Node ${process.version}, load ${loadavg()[0]!.toFixed(2)} at start`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** Modules that threw: the run goes on, says which failed and why, and exits 1 at the end. */
const failed: { module: string; scale: number; error: string }[] = [];

async function runAll(scale: number): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const name of args.modules) {
    const path = `./${name}.js`;
    if (!args.json)
      process.stderr.write(
        `bench: running ${path}${args.quick ? ' (quick)' : scale !== 1 ? ` at scale ${scale}` : ''}…\n`,
      );
    // One module's failure must not lose the hour of figures the others measured in a full run.
    try {
      const module = (await import(path)) as { bench: Bench };
      rows.push(...(await module.bench({ quick: args.quick, scale: args.quick ? 1 : scale })));
    } catch (error) {
      const said = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 500);
      failed.push({ module: name, scale, error: said });
      process.stderr.write(`bench: ${name} failed: ${said}\n`);
    }
  }
  // Each row's aim from the one table of aims, so the table and the JSON carry it.
  return rows.map((r) => ({ ...r, aim: aimOf(r.key) }));
}

const withRatio = (rows: readonly BenchRow[]): (BenchRow & { ratio: number })[] =>
  rows.map((r) => ({ ...r, ratio: r.rate / r.baselineRate }));

if (args.scales) {
  const runs: ScaledRun[] = [];
  for (const scale of args.scales) runs.push({ scale, rows: await runAll(scale) });
  const list = growth(runs);
  if (args.json) {
    process.stdout.write(
      JSON.stringify(
        {
          machine,
          date,
          scales: args.scales,
          runs: runs.map((r) => ({ scale: r.scale, rows: withRatio(r.rows) })),
          growth: list,
          ...(failed.length > 0 ? { failed } : {}),
        },
        null,
        2,
      ) + '\n',
    );
  } else {
    process.stdout.write(`\n${machine}; ${date}\n`);
    // Each scale's own table first: its notes hold the proofs (identical bytes, no payment twice).
    for (const run of runs) process.stdout.write(`\nScale ${run.scale}:\n\n${rowTable(run.rows)}\n`);
    process.stdout.write(
      `\nGrowth with size (each scale cell: size: rate vs baseline rate per second = ratio, peak RSS):\n\n${growthTable(list, args.scales)}\n`,
    );
  }
} else {
  const rows = await runAll(args.scale);
  const sizes = args.quick ? ' (quick sizes)' : args.scale !== 1 ? ` (scale ${args.scale})` : '';
  if (args.json) {
    process.stdout.write(
      JSON.stringify(
        {
          machine,
          date,
          quick: args.quick,
          scale: args.quick ? 1 : args.scale,
          rows: withRatio(rows),
          modules: args.modules,
          ...(failed.length > 0 ? { failed } : {}),
        },
        null,
        2,
      ) + '\n',
    );
  } else {
    process.stdout.write(`\n${machine}; ${date}${sizes}\n\n${rowTable(rows)}\n`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`bench: ${failed.length} module(s) failed: ${failed.map((f) => f.module).join(', ')}\n`);
  process.exitCode = 1;
}
