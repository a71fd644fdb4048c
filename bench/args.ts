// The command line of `npm run bench` (bench/run.ts), parsed strictly: a mistyped flag must not
// silently start an hour of full-size benchmarks.
/** The benchmark modules, in the order of the table (bench/<name>.ts). */
export const BENCH_MODULES = [
  'startup',
  'intake',
  'controls',
  'camt053',
  'writers',
  'reconcile',
  'history',
  'payments',
  'bureau',
  'console',
  'board',
  'templates',
] as const;
export type BenchModule = (typeof BENCH_MODULES)[number];

export const USAGE = `usage: npm run bench -- [--quick | --scale S | --scaling [--scales A,B,…]] [--only M,…] [--json]
  --quick          the small smoke-test sizes
  --scale S        every full size multiplied by S (e.g. 0.1); default 1
  --scaling        every benchmark at scales 0.01, 0.1 and 1, and how cost grows with size
  --scales A,B,…   the scales of --scaling (implies it), e.g. 0.01,0.05
  --only M,…       only these benchmark modules (${BENCH_MODULES.join(', ')})
  --json           machine-readable output on stdout`;

export const DEFAULT_SCALES: readonly number[] = [0.01, 0.1, 1];

export interface BenchArgs {
  quick: boolean;
  json: boolean;
  help: boolean;
  /** The scale of a single run (1 unless --scale). */
  scale: number;
  /** The modules to run, in table order (all unless --only). */
  modules: readonly BenchModule[];
  /** Ascending, distinct scales when growth with size is asked for (--scaling / --scales). */
  scales?: number[];
}

export class UsageError extends Error {}

function parseScale(text: string | undefined, flag: string): number {
  const value = text === undefined || text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(
      `${flag} needs a positive number, got ${text === undefined ? 'nothing' : JSON.stringify(text)}`,
    );
  return value;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { quick: false, json: false, help: false, scale: 1, modules: BENCH_MODULES };
  let scaleGiven = false;
  let scaling = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === '--quick') args.quick = true;
    else if (flag === '--json') args.json = true;
    else if (flag === '--help' || flag === '-h') args.help = true;
    else if (flag === '--scaling') scaling = true;
    else if (flag === '--scale') {
      args.scale = parseScale(value(), '--scale');
      scaleGiven = true;
    } else if (flag === '--scales') {
      const list = (value() ?? '').split(',').map((s) => parseScale(s, '--scales'));
      const distinct = [...new Set(list)].sort((a, b) => a - b);
      if (distinct.length < 2) throw new UsageError('--scales needs at least two different scales, e.g. 0.01,0.05');
      args.scales = distinct;
      scaling = true;
    } else if (flag === '--only') {
      const wanted = (value() ?? '').split(',').filter(Boolean);
      const unknown = wanted.filter((m) => !(BENCH_MODULES as readonly string[]).includes(m));
      if (wanted.length === 0 || unknown.length > 0)
        throw new UsageError(
          `--only takes modules among ${BENCH_MODULES.join(', ')}, got ${JSON.stringify(unknown.join(',') || '')}`,
        );
      args.modules = BENCH_MODULES.filter((m) => wanted.includes(m));
    } else throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
  }
  if (scaling) args.scales ??= [...DEFAULT_SCALES];
  // Each of these chooses the sizes; two of them at once would leave one silently ignored.
  const sizeChoices = [args.quick && '--quick', scaleGiven && '--scale', scaling && '--scaling'].filter(Boolean);
  if (sizeChoices.length > 1)
    throw new UsageError(`${sizeChoices.join(' and ')} cannot be combined: each chooses the sizes`);
  return args;
}
