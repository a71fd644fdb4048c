// A simulation of a bureau's night past the sizes the `bureau` rows run (issue #54, Must 6;
// docs/decisions/0016-past-one-machine.md): N settle instances on one MariaDB claim companies
// with settle's own claims code (src/store/unit-claims.ts, as `settle run nightly` does: the
// chain's unit with a done mark, its nine step units together, the successes in one write) and
// send each company's night of SQL statements, with no bank. A company's night is the bureau
// rows' measured count of SQL statements a company (0004: 162 in the next night), of which the
// claims send their own; the rest are the night's reads and writes of the company's rows, its
// statement entries among them (3 accounts × 3 entries, as the bureau rows book).
//
// Each instance is one connection and one company at a time; the instances run in at most two
// processes (the machine's two cores), so 20 instances are 20 connections from 2 processes. The
// contention curve runs 1, 2, 5, 10 and 20 instances over the same companies, each on emptied
// tables, and reads MariaDB's own counters around each run: row lock waits and their time,
// deadlocks (each one a statement settle runs again, src/store/deadlock.ts), SQL statements.
//
// Not part of `npm run bench` and not run in CI: `npm run bench:claims [-- --companies 10000]`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { STEP_NAMES } from '../jobs/nightly/step-result.js';
import { systemClock } from '../src/domain/clock.js';
import { JobSuccessRepository, LeaseRepository, openDatabase, UnitClaims, type Database } from '../src/store/index.js';
import { createThrowawayDatabase, mariaDbUnavailableReason } from '../test/support/mariadb.js';
import { pidOf, processCpuMs } from './process-cpu.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD_ENV = 'SETTLE_BENCH_CLAIMS_CHILD';
/** SQL statements a company sends in a bureau's next night (docs/decisions/0004, 582be9d). */
const STATEMENTS_A_COMPANY = 162;
const ACCOUNTS = 3;
const ENTRIES_AN_ACCOUNT = 3;
/** schedule.claimTtl's default. */
const CLAIM_TTL_MS = 45_000;
const MAX_PROCESSES = 2;

interface Options {
  companies: number;
  instances: number[];
  json: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { companies: 500, instances: [1, 2, 5, 10, 20], json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--companies') options.companies = positive(arg, value());
    else if (arg === '--instances')
      options.instances = value()
        .split(',')
        .map((v) => positive(arg, v));
    else if (arg === '--json') options.json = true;
    else throw new Error(`unknown argument ${arg} (known: --companies N, --instances 1,2,5, --json)`);
  }
  return options;
}

function positive(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: a whole number ≥ 1, got ${text}`);
  return n;
}

/** What one child process reports: its instances' first start and last end, and their claims. */
interface ChildReport {
  startedAt: number;
  endedAt: number;
  ran: number;
  claimedSkips: number;
  doneSkips: number;
  /** SQL statements the instances sent, counted by their clients (the server's counters are shared). */
  statements: number;
  /** Statements MariaDB picked as deadlock victims (each run again) or timed out waiting for a lock. */
  deadlockVictims: number;
  lockTimeouts: number;
  /** Milliseconds of each company night an instance ran, claims included. */
  nightMs: number[];
}

const companyId = (i: number): string => `c${String(i + 1).padStart(5, '0')}`;

/** The bench's own tables beside settle's schema: a company's rows, written only by its night's holder. */
async function createNightTables(db: Database): Promise<void> {
  await db.knex.raw(
    `CREATE TABLE sim_entries (company VARCHAR(16) NOT NULL, account SMALLINT NOT NULL, line SMALLINT NOT NULL,
       amount_minor BIGINT NOT NULL, booking_date DATE NOT NULL, reference VARCHAR(64) NOT NULL,
       PRIMARY KEY (company, account, line)) ENGINE=InnoDB`,
  );
  await db.knex.raw(
    `CREATE TABLE sim_state (company VARCHAR(16) NOT NULL, name VARCHAR(32) NOT NULL, value BIGINT NOT NULL,
       PRIMARY KEY (company, name)) ENGINE=InnoDB`,
  );
}

/**
 * One company's night beside its claims: `count` SQL statements. Its statement entries go in one
 * multi-row INSERT an account (the fetch writes a kind in one statement, 0004); the others are
 * point reads of the company's rows and single-row writes, two reads to a write, as the chain's
 * steps read more than they write.
 */
async function companyNight(db: Database, company: string, count: number): Promise<void> {
  for (let account = 0; account < ACCOUNTS; account++)
    await db.knex('sim_entries').insert(
      Array.from({ length: ENTRIES_AN_ACCOUNT }, (_, line) => ({
        company,
        account,
        line,
        amount_minor: -(1000 + account * 10 + line),
        booking_date: '2026-12-05',
        reference: `E2E-${company}-${account}-${line}`,
      })),
    );
  for (let i = ACCOUNTS; i < count; i++) {
    const name = `step-${i % 12}`;
    if (i % 3 === 2)
      await db.knex('sim_state').insert({ company, name, value: i }).onConflict(['company', 'name']).merge(['value']);
    else await db.knex('sim_state').where({ company, name }).first();
  }
}

/** SQL statements the claims send for a company whose chain runs: measured once, so the night's own are the rest. */
const CLAIM_STATEMENTS = 7;

async function runChild(spec: { url: string; first: number; instances: number; companies: number }): Promise<void> {
  const companies = Array.from({ length: spec.companies }, (_, i) => companyId(i));
  const dbs = await Promise.all(
    Array.from({ length: spec.instances }, () => openDatabase({ url: spec.url, poolMax: 1 })),
  );
  await Promise.all(dbs.map((db) => db.ping()));
  let statements = 0;
  let deadlockVictims = 0;
  let lockTimeouts = 0;
  for (const db of dbs) {
    db.knex.on('query', () => statements++);
    db.knex.on('query-error', (error: { code?: string }) => {
      if (error.code === 'ER_LOCK_DEADLOCK') deadlockVictims++;
      else if (error.code === 'ER_LOCK_WAIT_TIMEOUT') lockTimeouts++;
    });
  }
  const nightMs: number[] = [];
  const startedAt = Date.now();
  const claims = dbs.map((db, k) => {
    const successes = new JobSuccessRepository(db, systemClock);
    return new UnitClaims({
      leases: new LeaseRepository(db, systemClock),
      holder: `sim-${process.pid}-${spec.first + k}`,
      ttlMs: CLAIM_TTL_MS,
      onDone: (units) => successes.recordAll(units, `sim-${spec.first + k}`),
    });
  });
  const ran = await Promise.all(
    dbs.map(async (db, k) => {
      const units = claims[k]!;
      const nightStarted = new Date();
      let done = 0;
      // Every instance walks the same list in the same order, as `settle run nightly` does.
      for (const company of companies) {
        const started = performance.now();
        const run = await units.run(
          { job: 'nightly', company },
          () =>
            units.together(
              STEP_NAMES.map((job) => ({ job, company })),
              () => companyNight(db, company, STATEMENTS_A_COMPANY - CLAIM_STATEMENTS),
            ),
          { doneSince: nightStarted, collectDone: true },
        );
        if (!run.ran) continue;
        done++;
        nightMs.push(performance.now() - started);
      }
      units.close();
      return done;
    }),
  );
  const endedAt = Date.now();
  await Promise.all(dbs.map((db) => db.close()));
  const report: ChildReport = {
    startedAt,
    endedAt,
    ran: ran.reduce((a, b) => a + b, 0),
    claimedSkips: claims.reduce((a, c) => a + c.claimedElsewhere.length, 0),
    doneSkips: claims.reduce((a, c) => a + c.doneElsewhere.length, 0),
    statements,
    deadlockVictims,
    lockTimeouts,
    nightMs,
  };
  process.stdout.write(JSON.stringify(report) + '\n');
}

function child(spec: object): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SELF], {
      env: { ...process.env, [CHILD_ENV]: JSON.stringify(spec) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (code !== 0) reject(new Error(`claims child exited ${code}`));
      else resolve(JSON.parse(out.trim().split('\n').at(-1)!) as ChildReport);
    });
  });
}

/** The server's counters: of the whole server, so other clients' work on it counts too. */
const COUNTERS = ['Innodb_row_lock_waits', 'Innodb_row_lock_time', 'Innodb_deadlocks'] as const;
type Counters = Record<(typeof COUNTERS)[number], number>;

async function counters(connection: mysql.Connection): Promise<Counters> {
  const [rows] = await connection.query(`SHOW GLOBAL STATUS WHERE Variable_name IN (?)`, [COUNTERS]);
  const out = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Counters;
  for (const row of rows as { Variable_name: string; Value: string }[])
    out[row.Variable_name as keyof Counters] = Number(row.Value);
  return out;
}

interface RunFigures {
  instances: number;
  processes: number;
  companies: number;
  wallS: number;
  companiesPerS: number;
  sqlStatements: number;
  sqlStatementsPerS: number;
  sqlStatementsPerCompany: number;
  nightP50Ms: number;
  nightP95Ms: number;
  deadlockVictims: number;
  lockTimeouts: number;
  serverRowLockWaits: number;
  serverRowLockTimeMs: number;
  serverDeadlocks: number;
  claimedSkips: number;
  doneSkips: number;
  mariadbCpuS: number;
  ranTwice: number;
  lost: number;
}

async function runInstances(url: string, admin: mysql.Connection, instances: number, companies: number) {
  await admin.query('DELETE FROM leases');
  await admin.query('DELETE FROM job_successes');
  await admin.query('DELETE FROM sim_entries');
  await admin.query('DELETE FROM sim_state');
  const before = await counters(admin);
  const mariadb = pidOf('mariadbd') ?? pidOf('mysqld');
  const cpuBefore = processCpuMs(mariadb);
  const processes = Math.min(MAX_PROCESSES, instances);
  const specs = Array.from({ length: processes }, (_, p) => {
    const first = Math.floor((instances * p) / processes);
    const next = Math.floor((instances * (p + 1)) / processes);
    return { url, first, instances: next - first, companies };
  });
  // A long run says how far it got every half minute, on stderr.
  const started = Date.now();
  const progress = setInterval(() => {
    void admin.query('SELECT COUNT(DISTINCT company) AS n FROM sim_entries').then(([result]) => {
      const n = Number((result as { n: number }[])[0]!.n);
      const s = (Date.now() - started) / 1000;
      process.stderr.write(
        `  ${instances} instance(s): ${n} companies in ${s.toFixed(0)} s, ${(n / s).toFixed(1)}/s\n`,
      );
    });
  }, 30_000);
  const reports = await Promise.all(specs.map(child)).finally(() => clearInterval(progress));
  const cpuAfter = processCpuMs(mariadb);
  const after = await counters(admin);
  const [entries] = await admin.query(
    'SELECT COUNT(DISTINCT company) AS companies, COUNT(*) AS entries FROM sim_entries',
  );
  const { companies: written } = (entries as { companies: number }[])[0]!;
  const ran = reports.reduce((a, r) => a + r.ran, 0);
  const wallS = (Math.max(...reports.map((r) => r.endedAt)) - Math.min(...reports.map((r) => r.startedAt))) / 1000;
  const sql = reports.reduce((a, r) => a + r.statements, 0);
  const nights = reports.flatMap((r) => r.nightMs).sort((a, b) => a - b);
  const quantile = (q: number): number => nights[Math.min(nights.length - 1, Math.floor(q * nights.length))] ?? NaN;
  const figures: RunFigures = {
    instances,
    processes,
    companies,
    wallS,
    companiesPerS: companies / wallS,
    sqlStatements: sql,
    sqlStatementsPerS: sql / wallS,
    sqlStatementsPerCompany: sql / companies,
    nightP50Ms: quantile(0.5),
    nightP95Ms: quantile(0.95),
    deadlockVictims: reports.reduce((a, r) => a + r.deadlockVictims, 0),
    lockTimeouts: reports.reduce((a, r) => a + r.lockTimeouts, 0),
    serverRowLockWaits: after.Innodb_row_lock_waits - before.Innodb_row_lock_waits,
    serverRowLockTimeMs: after.Innodb_row_lock_time - before.Innodb_row_lock_time,
    serverDeadlocks: after.Innodb_deadlocks - before.Innodb_deadlocks,
    claimedSkips: reports.reduce((a, r) => a + r.claimedSkips, 0),
    doneSkips: reports.reduce((a, r) => a + r.doneSkips, 0),
    mariadbCpuS: (cpuAfter - cpuBefore) / 1000,
    // A company's entries are inserted under one primary key: a second night of it would have failed.
    ranTwice: ran - Number(written),
    lost: companies - Number(written),
  };
  return figures;
}

function table(rows: readonly RunFigures[]): string {
  const head =
    '| instances (processes) | wall | companies/s | SQL statements/s | SQL statements a company | a night p50 / p95 | deadlock victims / lock timeouts | claimed / done skips | server: row lock waits (ms), deadlocks | MariaDB CPU | twice / lost |';
  const lines = rows.map(
    (r) =>
      `| ${r.instances} (${r.processes}) | ${r.wallS.toFixed(1)} s | ${r.companiesPerS.toFixed(1)} | ` +
      `${r.sqlStatementsPerS.toFixed(0)} | ${r.sqlStatementsPerCompany.toFixed(0)} | ` +
      `${r.nightP50Ms.toFixed(0)} / ${r.nightP95Ms.toFixed(0)} ms | ${r.deadlockVictims} / ${r.lockTimeouts} | ` +
      `${r.claimedSkips} / ${r.doneSkips} | ${r.serverRowLockWaits} (${r.serverRowLockTimeMs}), ${r.serverDeadlocks} | ` +
      `${r.mariadbCpuS.toFixed(1)} s | ${r.ranTwice} / ${r.lost} |`,
  );
  return [head, `|${' --- |'.repeat(11)}`, ...lines].join('\n');
}

async function main(options: Options): Promise<void> {
  const unavailable = await mariaDbUnavailableReason();
  if (unavailable !== undefined) throw new Error(`MariaDB is needed: ${unavailable}`);
  const target = await createThrowawayDatabase();
  try {
    const db = await openDatabase({ url: target.url });
    await db.migrate();
    await createNightTables(db);
    await db.close();
    const admin = await mysql.createConnection(target.url);
    const rows: RunFigures[] = [];
    try {
      for (const n of options.instances) {
        const figures = await runInstances(target.url, admin, n, options.companies);
        rows.push(figures);
        if (!options.json) process.stderr.write(`${n} instance(s): ${figures.companiesPerS.toFixed(1)} companies/s\n`);
      }
    } finally {
      await admin.end();
    }
    const [load] = await import('node:os').then((os) => os.loadavg());
    if (options.json) process.stdout.write(JSON.stringify({ companies: options.companies, rows }, null, 2) + '\n');
    else
      process.stdout.write(
        `claims simulation, ${options.companies.toLocaleString('en')} companies, ${STATEMENTS_A_COMPANY} SQL statements a company, ` +
          `${new Date().toISOString()}, load ${load!.toFixed(1)}\n\n${table(rows)}\n`,
      );
  } finally {
    await target.drop();
  }
}

const childSpec = process.env[CHILD_ENV];
if (childSpec) await runChild(JSON.parse(childSpec) as Parameters<typeof runChild>[0]);
else await main(parseArgs(process.argv.slice(2)));
