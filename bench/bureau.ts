// The bureau rows: two nights of an accounting bureau — 1,000 client companies with three
// accounts each (scale 1) — run by 1, 2 and 4 `settle run nightly` processes at once on one
// MariaDB, against the sandbox bank in a process of its own with 50 ms latency and the
// subscription's rate limit (429 + Retry-After). The first night onboards the bureau: each
// account's first fetch reaches back 31 days, so each company exports a month of statement days
// (93 files). The next night is the one a bureau runs every night after: a new payment file per
// company, the status of yesterday's bulk, yesterday's bookings fetched and exported,
// reconciliation. Each night is a row: its wall time beside its latency bound, 429s counted, the
// CPU of settle, MariaDB and the sandbox; the proofs after both nights — no payment twice at the
// bank, no statement line lost or doubled in the exported files.
// Time: settle runs on the real clock (the CLI as installed); the sandbox's clock starts the
// evening before settle's today (Oslo) and stands still, so its today is not complete in the
// first night; between the nights it moves to the morning of settle's today, which completes
// that day, as a bank's night does.
// The bound and its inputs: bench/bureau-bound.ts. The settle processes run the CLI compiled
// from this checkout (built first, as the tests build it), never an older build left behind.
// SETTLE_BENCH_BUREAU_INSTANCES=1,2 runs only those instance counts (default 1,2,4);
// The instances reach MariaDB over its Unix socket when it runs on this host (as instances beside
// their database would); SETTLE_BENCH_BUREAU_SOCKET=tcp measures TCP on the loopback instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { loadConfig } from '../src/config/index.js';
import { dateInZone } from '../src/domain/local-date.js';
import { SEED, startSandbox } from '../src/sandbox/index.js';
import { startOfBankDay } from '../src/sandbox/time.js';
import { runSettle } from '../test/support/cli.js';
import buildCli from '../test/support/cli-build.js';
import { createThrowawayDatabase, mariaDbUnavailableReason } from '../test/support/mariadb.js';
import { withTempDir } from '../test/support/tmp.js';
import { statementLines, writeBureau, writePaymentFiles, type SandboxUrls } from '../test/support/bureau.js';
import { describeBound, latencyBound } from './bureau-bound.js';
import { exitedChildrenCpuMs, pidOf, processCpuMs } from './process-cpu.js';
import { scaledSize, type Bench, type BenchRow } from './row.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD_ENV = 'SETTLE_BENCH_BUREAU_CHILD';
const LATENCY_MS = 50;
/**
 * The subscription's rate limit over all instances together: SETTLE_BENCH_BUREAU_RATE requests a
 * second, default 400. The real API's number is not published (banking-api-facts.md, "Rate
 * limits"). Once one instance is near its own bound, the limit Q caps what N instances can win at
 * L×Q÷C (docs/performance.md): at 100 a second 1.25×, whatever N. 400 is the lowest round limit
 * that leaves room for 4 instances' 3× (N×C÷L = 320 a second) and still answers 429 when they
 * all press at once.
 */
const RATE_PER_SECOND = rateLimit();
/**
 * How the instances reach MariaDB. Instances that run beside their database use its Unix socket
 * (`?socket=` in database.url; docs/storage.md: about half the CPU per statement of TCP on the
 * loopback, for settle and the server alike), so the rows do too when the server runs on this
 * host and has one. SETTLE_BENCH_BUREAU_SOCKET=tcp measures TCP instead; a path names the socket.
 */
async function databaseSocket(url: string): Promise<string | undefined> {
  const asked = process.env.SETTLE_BENCH_BUREAU_SOCKET?.trim() ?? '';
  if (asked === 'tcp') return undefined;
  if (asked !== '') return asked;
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost') return undefined;
  const connection = await mysql.createConnection(url);
  try {
    const [rows] = await connection.query('select @@socket as socket');
    const socket = (rows as { socket?: string | null }[])[0]?.socket ?? undefined;
    return socket !== undefined && existsSync(socket) ? socket : undefined;
  } finally {
    await connection.end();
  }
}
const ACCOUNTS = 3;
const LINES = 5;
/** settle's default bank.concurrency. */
const CONCURRENCY = 4;
/** The companies' time zone (settle's default), in which "today" and a complete day are told. */
const TIME_ZONE = 'Europe/Oslo';
const HOUR_MS = 3_600_000;

function rateLimit(): number {
  const text = process.env.SETTLE_BENCH_BUREAU_RATE;
  if (text === undefined || text.trim() === '') return 400;
  const rate = Number(text);
  if (!Number.isInteger(rate) || rate < 1 || rate > 10_000)
    throw new Error(`SETTLE_BENCH_BUREAU_RATE: requests a second, a whole number 1–10000, got ${JSON.stringify(text)}`);
  return rate;
}

/** The instance counts to run: SETTLE_BENCH_BUREAU_INSTANCES (e.g. "1,2"), else 1, 2 and 4. */
function instanceCounts(): number[] {
  const text = process.env.SETTLE_BENCH_BUREAU_INSTANCES;
  if (text === undefined || text.trim() === '') return [1, 2, 4];
  const counts = text.split(',').map((n) => Number(n.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error(
      `SETTLE_BENCH_BUREAU_INSTANCES: whole numbers 1–16 separated by commas, got ${JSON.stringify(text)}`,
    );
  return counts;
}

/** The sandbox in a process of its own, so the bank's work is not counted as settle's. */
async function sandboxProcess(
  companies: number,
  start: Date,
): Promise<{ urls: SandboxUrls; cpuMs(): number; close(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ companies, start: start.toISOString() }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const urls = await new Promise<SandboxUrls>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(JSON.parse(d.toString().trim().split('\n')[0]!) as SandboxUrls));
    child.on('exit', (code) => reject(new Error(`bench sandbox exited early (${code})`)));
  });
  return { urls, cpuMs: () => processCpuMs(child.pid), close: () => void child.kill('SIGTERM') };
}

async function sandboxChild({ companies, start }: { companies: number; start: string }): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    start,
    latencyMs: LATENCY_MS,
    rateLimitPerSecond: RATE_PER_SECOND,
    bureau: { count: companies, accountsPerOrganisation: ACCOUNTS },
  });
  process.stdout.write(JSON.stringify(sandbox.urls) + '\n');
  process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
}

/** What one night cost: wall time, the requests the bank answered, and each process's CPU. */
interface Night {
  ms: number;
  failed: number;
  requests: number;
  refused: number;
  /** CPU in the night, each process's: settle's instances together, MariaDB (the whole server), the sandbox. */
  cpuMs: { settle: number; mariadb: number; sandbox: number };
}

/** Both nights of one instance count, and what the bank and the folders hold after them. */
interface TwoNights {
  first: Night;
  next: Night;
  /** Payments at the bank, how many of those repeat an end-to-end id, how many distinct ones. */
  lines: number;
  twice: number;
  distinct: number;
  /** Statement lines in the exported files, and how many repeat a bank entry. */
  statementLines: number;
  doubled: number;
  configLoadMs: number;
  /** settle's today changed between the nights (the run crossed midnight in Oslo): the proofs do not hold. */
  dayChanged: boolean;
  /** The instances reached MariaDB over its Unix socket, not TCP. */
  overSocket: boolean;
}

async function twoNights(companies: number, instances: number): Promise<TwoNights> {
  const target = await createThrowawayDatabase();
  const today = dateInZone(new Date(), TIME_ZONE);
  // The evening before settle's today: the bank has not closed that day yet.
  const sandbox = await sandboxProcess(companies, new Date(startOfBankDay(today) - 4 * HOUR_MS));
  const control = async (path = '', init?: RequestInit) =>
    (await (await fetch(`${sandbox.urls.controlUrl}${path}`, init)).json()) as Record<string, unknown>;
  const answered = async () => {
    const { rateLimit } = (await control()) as { rateLimit: { served: number; refused: number } };
    return { requests: rateLimit.served + rateLimit.refused, refused: rateLimit.refused };
  };
  try {
    return await withTempDir(async (dir) => {
      const config = await writeBureau(dir, { companies, lines: LINES, urls: sandbox.urls, concurrency: CONCURRENCY });
      const t = performance.now();
      loadConfig({ file: config, env: { SETTLE_CLIENT_SECRET: SEED.clientSecret } });
      const configLoadMs = performance.now() - t;
      const socket = await databaseSocket(target.url);
      const url = socket === undefined ? target.url : `${target.url}?socket=${encodeURIComponent(socket)}`;
      const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret, SETTLE_DATABASE_URL: url };
      await runSettle(['--config', config, 'db', 'migrate'], { cwd: dir, env });
      const mariadb = pidOf('mariadbd');
      const night = async (): Promise<Night> => {
        // The files must be stable (intake.stableFor) before pickup takes them.
        await new Promise((r) => setTimeout(r, 1200));
        const before = await answered();
        const cpu0 = { settle: exitedChildrenCpuMs(), mariadb: processCpuMs(mariadb), sandbox: sandbox.cpuMs() };
        const t0 = performance.now();
        const runs = await Promise.all(
          Array.from({ length: instances }, () => runSettle(['--config', config, 'run', 'nightly'], { cwd: dir, env })),
        );
        const ms = performance.now() - t0;
        const cpuMs = {
          settle: exitedChildrenCpuMs() - cpu0.settle,
          mariadb: processCpuMs(mariadb) - cpu0.mariadb,
          sandbox: sandbox.cpuMs() - cpu0.sandbox,
        };
        if (process.env.SETTLE_BENCH_BUREAU_SHOW === '1')
          for (const r of runs) process.stderr.write(`${r.stdout}\n${r.stderr}\n`);
        const failed = runs.filter((r) => ![0, 1, 4].includes(r.code ?? -1));
        for (const r of failed) process.stderr.write(`bench bureau: a process exited ${r.code}:\n${failureOf(r)}\n`);
        const after = await answered();
        return {
          ms,
          failed: failed.length,
          requests: after.requests - before.requests,
          refused: after.refused - before.refused,
          cpuMs,
        };
      };
      const first = await night();
      // Morning at the bank: settle's yesterday is complete now. A new file in every inbox.
      const { now } = (await control('/clock')) as { now: string };
      await control('/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceMs: startOfBankDay(today) + 6 * HOUR_MS - Date.parse(now) }),
      });
      await writePaymentFiles(dir, { companies, lines: LINES, night: 2 });
      const next = await night();
      const paid = (await control('/payments')) as {
        payments: { paymentLines: { endToEndIdentification: string }[] }[];
      };
      const ids = paid.payments.flatMap((p) => p.paymentLines.map((l) => l.endToEndIdentification));
      const statement = await statementLines(dir, companies);
      return {
        first,
        next,
        lines: ids.length,
        twice: ids.length - new Set(ids).size,
        distinct: new Set(ids).size,
        statementLines: statement.lines,
        doubled: statement.doubled,
        configLoadMs,
        dayChanged: dateInZone(new Date(), TIME_ZONE) !== today,
        overSocket: socket !== undefined,
      };
    });
  } finally {
    sandbox.close();
    await target.drop();
  }
}

/**
 * What a failed process said of its failure: its failed steps (the ✗ lines of its output) and its
 * error log lines, at most 20, not its whole night; the end of its stderr when it said neither.
 */
function failureOf(r: { stdout: string; stderr: string }): string {
  const said = `${r.stdout}\n${r.stderr}`
    .split('\n')
    .filter((line) => line.startsWith('✗') || line.includes('"level":"error"'));
  return said.length > 0 ? said.slice(0, 20).join('\n') : r.stderr.slice(-2000);
}

/**
 * "CPU settle 410 s + MariaDB 150 s + sandbox 60 s = 620 s, 310 s a core on 2": the night's work on
 * the machine's cores. When that share per core comes near the wall time, the cores bind, not
 * the bank; MariaDB's figure is the whole server's, so work of others on it counts too.
 */
function describeCpu(r: Night): string {
  const { settle, mariadb, sandbox } = r.cpuMs;
  const total = settle + mariadb + sandbox;
  const cores = availableParallelism();
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  return `CPU settle ${s(settle)} + MariaDB ${s(mariadb)} + sandbox ${s(sandbox)} = ${s(total)}, ${s(total / cores)} a core on ${cores}`;
}

export const bench: Bench = async ({ quick, scale }) => {
  const companies = quick ? 10 : scaledSize(1000, scale, { min: 10 });
  const accounts = companies * ACCOUNTS;
  const unavailable = await mariaDbUnavailableReason();
  if (unavailable !== undefined) {
    return instanceCounts().map((n) => ({
      key: `bureau-${n}`,
      name: `bureau night, ${companies} companies, ${n} instance(s)`,
      size: companies,
      unit: 'companies',
      rate: 0,
      baselineName: 'n/a',
      baselineRate: 1,
      peakRssBytes: 0,
      notes: `skipped: MariaDB not reachable (${unavailable})`,
    }));
  }
  await buildCli();
  const runs: { n: number; r: TwoNights }[] = [];
  for (const n of instanceCounts()) runs.push({ n, r: await twoNights(companies, n) });
  const single = runs[0]!.r;
  const row = (n: number, r: TwoNights, which: 'first' | 'next'): BenchRow => {
    const night = r[which];
    const inputs = {
      requests: night.requests,
      latencyMs: LATENCY_MS,
      instances: n,
      concurrency: CONCURRENCY,
      ratePerSecond: RATE_PER_SECOND,
    };
    const bound = latencyBound(inputs).ms;
    // Three booked days per account at the bank, the last one exported by the next night; five
    // payments per company and night.
    const expectedStatement = accounts * 3;
    const lost = expectedStatement - (r.statementLines - r.doubled);
    const paymentsLost = companies * LINES * 2 - r.distinct;
    const what = which === 'first' ? 'first night (onboarding: a month of statements)' : 'next night';
    return {
      key: which === 'first' ? `bureau-first-${n}` : `bureau-${n}`,
      name: `bureau ${what}, ${companies.toLocaleString('en')} companies, ${accounts.toLocaleString('en')} accounts, ${n} instance(s) × 4 companies at once, one MariaDB over ${r.overSocket ? 'its Unix socket' : 'TCP'}, ${LATENCY_MS} ms latency, ${RATE_PER_SECOND} req/s limit`,
      size: companies,
      unit: 'companies',
      rate: night.failed > 0 ? 0 : companies / (night.ms / 1000),
      baselineName: 'latency bound',
      baselineRate: companies / (bound / 1000),
      peakRssBytes: 0,
      figures: { sentTwice: r.twice, lost: paymentsLost, entriesDoubled: r.doubled, entriesLost: lost },
      notes:
        `${night.failed > 0 ? `FAILED: ${night.failed} process(es); ` : ''}${r.dayChanged ? "INVALID: settle's day changed between the nights (midnight in Oslo), run again; " : ''}` +
        `wall ${(night.ms / 1000).toFixed(1)} s vs bound ${(bound / 1000).toFixed(1)} s ` +
        `(${describeBound(inputs, night.refused)}); ${(single[which].ms / night.ms).toFixed(2)}× one instance's throughput; ` +
        `${describeCpu(night)}; after both nights: ` +
        `${r.lines} payments at the bank of ${companies * LINES * 2}, ${r.twice} sent twice, ${paymentsLost} lost; ` +
        `${r.statementLines} statement lines exported of ${expectedStatement}, ${r.doubled} doubled, ${lost} lost; ` +
        `config of ${companies} companies loads in ${r.configLoadMs.toFixed(0)} ms`,
    };
  };
  return [...runs.map(({ n, r }) => row(n, r, 'first')), ...runs.map(({ n, r }) => row(n, r, 'next'))];
};

if (process.env[CHILD_ENV] !== undefined)
  void sandboxChild(JSON.parse(process.env[CHILD_ENV]) as { companies: number; start: string });
