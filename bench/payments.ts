// Benchmark of the payment path (`npm run bench`):
//  1. submit + one status poll of 100,000 payments (quick: 5,000) in bulks of 1,000 lines against
//     the sandbox with 20 ms injected latency per bank answer, in one settle process on SQLite;
//     the sandbox runs in a process of its own, so the bank's work is not counted as settle's.
//     A request is one HTTP exchange with the bank: one POST per bulk, one GET per bulk for
//     status, one token request. Its floor is the latency bound requests × latency ÷ concurrency
//     (the client's 4 connections); the row's baseline is the payment rate at that bound, so a
//     ratio near 1 means settle's own work (database, JSON, HTTP) adds little.
//  1b. the floor of that row: the same exchanges with the same bank (100 POSTs of the same bodies,
//     100 status GETs, their answers read) by settle's own bank client with no database and no
//     job around it. No design of settle's store or jobs can bring the row nearer its bound than
//     this row is on the same machine: it is what the HTTP and JSON of the exchanges, and the
//     sandbox's own work on the same cores, cost.
//  2. 1, 2 and 4 settle processes submitting the same 20,000 payments (quick: 2,000) in bulks of
//     100 from one MariaDB database, each claiming bulks with leases; throughput of each run
//     beside the single process, and the proof that no payment went twice: the bank holds each
//     idempotency key and each end-to-end id exactly once. Skipped with a note without MariaDB.
// `scale` multiplies both counts, in whole bulks. Part 1 runs in a child process of its own, so
// its peak RSS is that settle run's, not the bench runner's history. Part 1's three rows run three
// times in turns (each round starting with another), and each row is its median run: one run of
// each on a shared machine made the ratio move by a tenth between two quiet runs.
import { execFileSync, spawn } from 'node:child_process';
import Sqlite from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answeredLines, bulkRequest, type BulkHead } from '../jobs/submit/bulk-request.js';
import { runStatus } from '../jobs/status/poll.js';
import { runSubmit } from '../jobs/submit/submit.js';
import type { PaymentJobDeps } from '../jobs/payments/deps.js';
import { HttpBankClient } from '../src/bank/index.js';
import { configSchema, type CompanyConfig } from '../src/config/index.js';
import { systemClock, type Clock } from '../src/domain/clock.js';
import { mapConcurrent } from '../src/domain/concurrent.js';
import type { LocalDate } from '../src/domain/local-date.js';
import type { InstructionPriority, PaymentInstruction } from '../src/domain/payment.js';
import { silentLogger } from '../src/log/index.js';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.js';
import { createStore, openDatabase, type RequestLine, type Store } from '../src/store/index.js';
import { createThrowawayDatabase, mariaDbUnavailableReason } from '../test/support/mariadb.js';
import { processCpuMs } from './process-cpu.js';
import { watchStalls } from './stalls.js';
import { scaledSize, type Bench, type BenchRow } from './row.js';

const SELF = fileURLToPath(import.meta.url);
const CHILD_ENV = 'SETTLE_BENCH_PAYMENTS_CHILD';
const LATENCY_MS = 20;
const CONCURRENCY = 4;

function company(root: string, maxLines: number): CompanyConfig {
  return configSchema.parse({
    companies: [
      { id: 'bench', name: 'Bench AS', organisationNumber: '999999999', root, payments: { maxLinesPerBulk: maxLines } },
    ],
  }).companies[0]!;
}

function bank(sandbox: { baseUrl: string; authUrl: string }, clock: Clock): HttpBankClient {
  return new HttpBankClient({
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
    tenantId: 'sandbox',
    clientId: 'sandbox-client',
    clientSecret: { reveal: () => 'sandbox-secret' },
    subscriptionId: 'sandbox',
    logger: silentLogger(),
    clock,
    concurrency: CONCURRENCY,
    timeoutMs: 60_000,
  });
}

function deps(store: Store, client: HttpBankClient, clock: Clock, holder: string): PaymentJobDeps {
  return {
    store,
    bank: client,
    clock,
    logger: silentLogger(),
    timeZone: 'Europe/Oslo',
    holder,
    runId: holder,
    idempotencyRetentionMs: 24 * 3600_000,
    concurrency: CONCURRENCY,
    fileStore: () => Promise.reject(new Error('no folders in the benchmark')),
  };
}

const DEBTOR_IBAN = 'NO9386011117947';
/** Lines in each accepted file the single-process row seeds (ten bulks of 1,000 a file). */
const LINES_PER_FILE = 10_000;

/** Line i of file f, as the bench seeds it (and as the floor row sends it). */
function benchLine(f: number, i: number, executionDate: string): PaymentInstruction {
  return {
    debtorIban: DEBTOR_IBAN,
    debtorName: 'Bench AS',
    requestedExecutionDate: executionDate as LocalDate,
    endToEndId: `B-${f}-${i}`,
    amount: { minor: BigInt(100 + (i % 1000)), currency: 'NOK' },
    creditorIban: 'NO0612000000009',
    creditorName: 'Creditor AS',
    lineNumber: i + 1,
  };
}

async function seed(store: Store, count: number, perFile: number, executionDate: string): Promise<void> {
  for (let f = 0; f * perFile < count; f++) {
    const n = Math.min(perFile, count - f * perFile);
    const payments = Array.from({ length: n }, (_, i) => benchLine(f, i, executionDate));
    await store.files.recordAcceptedFile(
      {
        company: 'bench',
        fileName: `bench-${f}.csv`,
        sha256: `${String(f).padStart(8, '0')}${'c'.repeat(56)}`,
        format: 'csv:generic',
        sizeBytes: n * 100,
        receivedAt: new Date(),
      },
      payments,
    );
  }
}

interface BankBulk {
  idempotencyKey: string | null;
  paymentLines: { endToEndIdentification: string }[];
}

async function bankRecord(
  sandbox: Pick<RunningSandbox, 'urls'>,
): Promise<{ bulks: number; lines: number; duplicateKeys: number; duplicateLines: number }> {
  const body = (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as
    BankBulk[] | { payments: BankBulk[] };
  const list = Array.isArray(body) ? body : body.payments;
  const keys = list.map((b) => b.idempotencyKey);
  const lines = list.flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification));
  return {
    bulks: list.length,
    lines: lines.length,
    duplicateKeys: keys.length - new Set(keys).size,
    duplicateLines: lines.length - new Set(lines).size,
  };
}

function executionDate(days: number): string {
  return new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10);
}

/** The sandbox bank in a process of its own, so its work (validation, JSON) is not counted as settle's. */
async function sandboxProcess(): Promise<{ urls: RunningSandbox['urls']; cpuMs(): number; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
    env: { ...process.env, [CHILD_ENV]: 'sandbox' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const urls = await new Promise<RunningSandbox['urls']>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) resolve(JSON.parse(line) as RunningSandbox['urls']);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`bench sandbox exited early (${code})`)));
  });
  return {
    urls,
    cpuMs: () => processCpuMs(child.pid),
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function sandboxChild(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, start: new Date().toISOString(), latencyMs: LATENCY_MS });
  process.stdout.write(JSON.stringify(sandbox.urls) + '\n');
  process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
}

/** A row of part 1: its payments' rate against the latency bound of the requests it made. */
function exchangesRow(
  row: Pick<BenchRow, 'key' | 'name' | 'notes'>,
  measured: { count: number; ms: number; requests: number; cpuMs: number; peakRssBytes?: number },
): BenchRow {
  const { count, ms, requests, cpuMs, peakRssBytes = process.resourceUsage().maxRSS * 1024 } = measured;
  const boundMs = (requests * LATENCY_MS) / CONCURRENCY;
  return {
    ...row,
    size: count,
    unit: 'payments',
    rate: count / (ms / 1000),
    baselineName: `latency bound ${requests} req × ${LATENCY_MS} ms ÷ ${CONCURRENCY}`,
    baselineRate: count / (boundMs / 1000),
    peakRssBytes,
    figures: { cpuMs },
  };
}

/** Part 1: one process, SQLite, submit + one status poll; the bank in a process of its own. */
async function singleProcess(count: number): Promise<BenchRow> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-pay-'));
  const sandbox = await sandboxProcess();
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  const client = bank(sandbox.urls, systemClock);
  try {
    await db.migrate();
    const store = createStore(db, systemClock);
    await seed(store, count, LINES_PER_FILE, executionDate(5));
    const c = company(dir, 1000);
    const rss0 = process.resourceUsage().maxRSS;
    const bankCpu0 = sandbox.cpuMs();
    const cpu0 = process.cpuUsage();
    const stalls = watchStalls();
    const t0 = performance.now();
    const submitted = await runSubmit(deps(store, client, systemClock, 'bench-1'), [c]);
    const submitMs = performance.now() - t0;
    const polled = await runStatus(deps(store, client, systemClock, 'bench-2'), [c]);
    const ms = performance.now() - t0;
    const stallMs = stalls.stop();
    // settle's own CPU time in the timed part: near the wall time means settle's work is the
    // cost; far below it means the process waited (for the bank, or for a core on a loaded machine).
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const bankCpuMs = sandbox.cpuMs() - bankCpu0;
    const bulks = submitted.bulks.length;
    const requests = bulks + polled.polled + 1;
    const boundMs = (requests * LATENCY_MS) / CONCURRENCY;
    const record = await bankRecord(sandbox);
    const ok = record.lines === count && record.duplicateLines === 0 && record.duplicateKeys === 0;
    return exchangesRow(
      {
        key: 'payments-single',
        name: `submit + status, ${count.toLocaleString('en')} payments, ${LATENCY_MS} ms bank latency, SQLite`,
        notes: `wall ${(ms / 1000).toFixed(2)} s (submit ${(submitMs / 1000).toFixed(2)} s; settle CPU ${(cpuMs / 1000).toFixed(2)} s, sandbox CPU ${(bankCpuMs / 1000).toFixed(2)} s) vs bound ${(boundMs / 1000).toFixed(2)} s; longest without a turn of the event loop ${stallMs.toFixed(0)} ms; ${bulks} bulks; bank holds ${record.lines} lines once each: ${ok ? 'yes' : 'NO'}`,
      },
      { count, ms, requests, cpuMs, peakRssBytes: Math.max(rss0, process.resourceUsage().maxRSS) * 1024 },
    );
  } finally {
    await client.close();
    await db.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Part 1b, the floor of part 1: the same 100 bulks of the same lines POSTed with the same bodies
 * (bulkRequest) and the same answers read (answeredLines, then one status GET a bulk, read as the
 * status job reads it), by the same bank client with the same 4 connections against the same
 * sandbox in a process of its own: everything of the row but settle's store and jobs.
 */
async function floorProcess(count: number): Promise<BenchRow> {
  const sandbox = await sandboxProcess();
  const client = bank(sandbox.urls, systemClock);
  try {
    const c = company('/nonexistent', 1000);
    const date = executionDate(5);
    const bulks: RequestLine[][] = [];
    for (let start = 0; start < count; start += 1000) {
      const f = Math.floor(start / LINES_PER_FILE);
      const first = start % LINES_PER_FILE;
      const n = Math.min(1000, count - start, LINES_PER_FILE - first);
      bulks.push(Array.from({ length: n }, (_, k) => benchLine(f, first + k, date)));
    }
    const head: BulkHead = {
      debtorIban: DEBTOR_IBAN,
      executionDate: date as LocalDate,
      batchBooking: c.payments.batchBooking,
    };
    const bankCpu0 = sandbox.cpuMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const ids = await mapConcurrent(bulks, CONCURRENCY, async (lines) => {
      const request = bulkRequest(head, lines);
      const created = await client.createBulkPayment(c.organisationNumber, request, { idempotencyKey: randomUUID() });
      answeredLines(created, lines);
      return created.paymentId;
    });
    const postMs = performance.now() - t0;
    await mapConcurrent(ids, CONCURRENCY, (id) => client.getBulkPayment(c.organisationNumber, id));
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const bankCpuMs = sandbox.cpuMs() - bankCpu0;
    const requests = bulks.length + ids.length + 1;
    const boundMs = (requests * LATENCY_MS) / CONCURRENCY;
    const record = await bankRecord(sandbox);
    return exchangesRow(
      {
        key: 'payments-floor',
        name: `the same exchanges alone, ${count.toLocaleString('en')} payments: settle's bank client, no database`,
        notes: `wall ${(ms / 1000).toFixed(2)} s (POSTs ${(postMs / 1000).toFixed(2)} s; client CPU ${(cpuMs / 1000).toFixed(2)} s, sandbox CPU ${(bankCpuMs / 1000).toFixed(2)} s) vs bound ${(boundMs / 1000).toFixed(2)} s: no store or job design brings payments-single nearer its bound than this on this machine; bank holds ${record.lines} lines`,
      },
      { count, ms, requests, cpuMs },
    );
  } finally {
    await client.close();
    await sandbox.close();
  }
}

/**
 * Part 1c, the least durable work an exactly-once submit must do, measured beside the floor: the
 * floor's exchanges, and around each of them the fewest SQL statements that keep a payment from
 * going twice or being lost, sent straight to better-sqlite3 on the row's own seeded database (the
 * same wide `payments` rows, the store's pragmas). Before a bulk's POST, in one transaction: its
 * row and its key, and a narrow row (bulk, payment, state) for each of its lines, guarded by the
 * file, the line span and the state they join from; then its request lines read from `payments`
 * as the send reads them. After the answer, in one transaction: the lines' state by bulk, and the
 * bulk's. The poll: the bulk's status and its lines' by bulk. No jobs, plans, counters,
 * transition rows, leases or checks: what no design of the store can do without. If this row is
 * above the aim, no store design reaches it on this machine.
 */
async function durableProcess(count: number): Promise<BenchRow> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-durable-'));
  const file = join(dir, 'settle.sqlite');
  const sandbox = await sandboxProcess();
  const client = bank(sandbox.urls, systemClock);
  const knexDb = await openDatabase({ url: `sqlite:${file}` });
  await knexDb.migrate();
  await seed(createStore(knexDb, systemClock), count, LINES_PER_FILE, executionDate(5));
  // The seeded files by their number (bench-<f>.csv), as the floor numbers its lines.
  const fileIds = new Map(
    (await knexDb.knex('payment_files').select('id', 'file_name')).map((r: { id: string; file_name: string }) => [
      Number(/bench-(\d+)/.exec(r.file_name)![1]),
      String(r.id),
    ]),
  );
  await knexDb.close();
  const db = new Sqlite(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.exec(`create table bench_bulks (id text primary key, idempotency_key text not null unique, state text not null,
      bank_payment_id text, bank_status text, updated_at text not null)`);
    db.exec(`create table bench_lines (bulk_id text not null references bench_bulks (id),
      payment_id text not null references payments (id), state text not null, updated_at text not null,
      primary key (bulk_id, payment_id)) without rowid`);
    db.exec('create unique index bench_lines_payment_uq on bench_lines (payment_id)');
    const insertBulk = db.prepare(
      "insert into bench_bulks (id, idempotency_key, state, updated_at) values (?, ?, 'sending', ?)",
    );
    const join_ = db.prepare(`insert into bench_lines (bulk_id, payment_id, state, updated_at)
      select ?, id, 'sending', ? from payments where file_id = ? and line_number between ? and ? and state = 'accepted'`);
    const lines = db
      .prepare(
        `select end_to_end_id, debtor_name, amount_minor, currency, creditor_iban, creditor_name, creditor_bic,
        remittance, creditor_reference, priority, ultimate_debtor, ultimate_creditor, purpose from payments
        where file_id = ? and line_number between ? and ? order by line_number`,
      )
      .raw(true)
      .safeIntegers(true);
    const moveLines = db.prepare('update bench_lines set state = ?, updated_at = ? where bulk_id = ?');
    const moveBulk = db.prepare(
      'update bench_bulks set state = ?, bank_payment_id = ?, bank_status = ?, updated_at = ? where id = ?',
    );
    const pollBulk = db.prepare('update bench_bulks set bank_status = ?, updated_at = ? where id = ?');
    const inTransaction = <T>(work: () => T): T => db.transaction(work).immediate();
    const c = company(dir, 1000);
    const head: BulkHead = {
      debtorIban: DEBTOR_IBAN,
      executionDate: executionDate(5) as LocalDate,
      batchBooking: c.payments.batchBooking,
    };
    const spans: { fileId: string; first: number; last: number }[] = [];
    for (let start = 0; start < count; start += 1000) {
      const f = Math.floor(start / LINES_PER_FILE);
      const first = (start % LINES_PER_FILE) + 1;
      spans.push({
        fileId: fileIds.get(f)!,
        first,
        last: Math.min(first + 999, LINES_PER_FILE, count - f * LINES_PER_FILE),
      });
    }
    const bankCpu0 = sandbox.cpuMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const sent = await mapConcurrent(spans, CONCURRENCY, async (span) => {
      const bulkId = randomUUID();
      const key = randomUUID();
      const at = new Date().toISOString();
      inTransaction(() => {
        insertBulk.run(bulkId, key, at);
        join_.run(bulkId, at, span.fileId, span.first, span.last);
      });
      const request = (lines.all(span.fileId, span.first, span.last) as (string | bigint | null)[][]).map((row) => {
        const line: RequestLine = {
          endToEndId: String(row[0]),
          debtorName: String(row[1]),
          amount: { minor: row[2] as bigint, currency: String(row[3]) },
          creditorIban: String(row[4]),
          creditorName: String(row[5]),
        };
        // As the send maps them (src/store/payments.ts, requestLinesOfBulk).
        if (row[6] !== null) line.creditorBic = String(row[6]);
        if (row[7] !== null) line.remittanceInformation = String(row[7]);
        if (row[8] !== null) line.creditorReference = String(row[8]);
        if (row[9] !== null) line.instructionPriority = String(row[9]) as InstructionPriority;
        if (row[10] !== null) line.ultimateDebtor = String(row[10]);
        if (row[11] !== null) line.ultimateCreditor = String(row[11]);
        if (row[12] !== null) line.purpose = String(row[12]);
        return line;
      });
      const created = await client.createBulkPayment(c.organisationNumber, bulkRequest(head, request), {
        idempotencyKey: key,
      });
      const answered = answeredLines(created, request);
      const now = new Date().toISOString();
      inTransaction(() => {
        moveLines.run(answered[0]?.status ?? created.transactionStatus, now, bulkId);
        moveBulk.run('sent', created.paymentId, created.transactionStatus, now, bulkId);
      });
      return { bulkId, paymentId: created.paymentId };
    });
    const postMs = performance.now() - t0;
    await mapConcurrent(sent, CONCURRENCY, async ({ bulkId, paymentId }) => {
      const status = await client.getBulkPayment(c.organisationNumber, paymentId);
      const now = new Date().toISOString();
      inTransaction(() => {
        pollBulk.run(status.transactionStatus, now, bulkId);
        moveLines.run(status.transactionStatus, now, bulkId);
      });
    });
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const bankCpuMs = sandbox.cpuMs() - bankCpu0;
    const requests = spans.length * 2 + 1;
    const record = await bankRecord(sandbox);
    const held = (db.prepare('select count(*) as n from bench_lines').get() as { n: number }).n;
    const ok = held === count && record.lines === count && record.duplicateLines === 0 && record.duplicateKeys === 0;
    return exchangesRow(
      {
        key: 'payments-durable',
        name: `the same exchanges with the least durable work, ${count.toLocaleString('en')} payments: narrow SQL, no jobs`,
        notes: `wall ${(ms / 1000).toFixed(2)} s (POSTs ${(postMs / 1000).toFixed(2)} s; CPU ${(cpuMs / 1000).toFixed(2)} s, sandbox CPU ${(bankCpuMs / 1000).toFixed(2)} s); ${held} lines recorded, bank holds ${record.lines} lines once each: ${ok ? 'yes' : 'NO'}`,
      },
      { count, ms, requests, cpuMs },
    );
  } finally {
    db.close();
    await client.close();
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Part 2: n processes on one MariaDB database. A process that fails is counted, not thrown: the
 * others finish, and the bank's record still shows whether any payment went twice.
 */
async function multiProcess(
  count: number,
  processes: number,
): Promise<{ ms: number; failed: number; record: Awaited<ReturnType<typeof bankRecord>> }> {
  const target = await createThrowawayDatabase();
  const sandbox = await startSandbox({ port: 0, start: new Date().toISOString(), latencyMs: LATENCY_MS });
  try {
    const db = await openDatabase({ url: target.url });
    await db.migrate();
    await seed(createStore(db, systemClock), count, 1000, executionDate(5));
    await db.close();
    const t0 = performance.now();
    const codes = await Promise.all(
      Array.from(
        { length: processes },
        (_, i) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', SELF], {
              env: {
                ...process.env,
                [CHILD_ENV]: '1',
                BENCH_DB: target.url,
                BENCH_BASE: sandbox.urls.baseUrl,
                BENCH_AUTH: sandbox.urls.authUrl,
                BENCH_HOLDER: `p${i}`,
              },
              stdio: ['ignore', 'ignore', 'inherit'],
            });
            child.on('error', () => resolve(null));
            child.on('exit', (code) => resolve(code));
          }),
      ),
    );
    const ms = performance.now() - t0;
    return { ms, failed: codes.filter((code) => code !== 0).length, record: await bankRecord(sandbox) };
  } finally {
    await sandbox.close();
    await target.drop();
  }
}

async function child(): Promise<void> {
  const env = process.env;
  const db = await openDatabase({ url: env.BENCH_DB!, poolMax: CONCURRENCY + 2 });
  const client = bank({ baseUrl: env.BENCH_BASE!, authUrl: env.BENCH_AUTH! }, systemClock);
  try {
    await runSubmit(deps(createStore(db, systemClock), client, systemClock, env.BENCH_HOLDER!), [
      company('/nonexistent', 100),
    ]);
  } finally {
    await client.close();
    await db.close();
  }
}

/**
 * The single row's notes gain settle's CPU per 1,000 payments beyond the floor's client CPU: the
 * work of the store and the jobs alone, which is what a change to them moves. It is steadier than
 * the ratio of walls on a busy machine, where waiting for a core counts in the walls (issue #54).
 */
export function withCpuBeyondFloor(single: BenchRow, floor: BenchRow): [BenchRow, BenchRow] {
  const settleMs = single.figures?.cpuMs;
  const clientMs = floor.figures?.cpuMs;
  if (settleMs === undefined || clientMs === undefined || single.size !== floor.size || single.size === 0)
    return [single, floor];
  const perThousand = ((settleMs - clientMs) * 1000) / single.size;
  const beyond = `settle CPU per 1,000 payments beyond the floor's client CPU ${perThousand.toFixed(1)} ms`;
  return [{ ...single, notes: single.notes === undefined ? beyond : `${single.notes}; ${beyond}` }, floor];
}

/**
 * The least durable work's notes gain its time against the floor's and its CPU per 1,000 payments
 * beyond the floor's client CPU: how far above the floor any store design must stay on this
 * machine, beside what settle's store spends (the single row's note).
 */
export function againstFloor(durable: BenchRow, floor: BenchRow): BenchRow {
  const ownMs = durable.figures?.cpuMs;
  const clientMs = floor.figures?.cpuMs;
  if (ownMs === undefined || clientMs === undefined || durable.size !== floor.size || durable.size === 0)
    return durable;
  const times = floor.rate / durable.rate;
  const perThousand = ((ownMs - clientMs) * 1000) / durable.size;
  const note = `${times.toFixed(2)}× the time of payments-floor; CPU per 1,000 payments beyond the floor's client CPU ${perThousand.toFixed(1)} ms`;
  return { ...durable, notes: durable.notes === undefined ? note : `${durable.notes}; ${note}` };
}

/** Part 1 (or its floor) in a fresh process: its CPU and peak RSS are then the run's own. */
function inChild(part: 'single' | 'floor' | 'durable', count: number): BenchRow {
  const out = execFileSync(process.execPath, ['--import', 'tsx', SELF], {
    env: { ...process.env, [CHILD_ENV]: part, BENCH_COUNT: String(count) },
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as BenchRow;
}

/** Part 1's children, in the order of a round; each round starts one further on. */
const PART_ONE = ['single', 'floor', 'durable'] as const;

/** Part 1 run `rounds` times in turns: each part's median run, by rate, noting every run's wall. */
function partOneInTurns(size: number, rounds: number): Record<(typeof PART_ONE)[number], BenchRow> {
  const runs = new Map<(typeof PART_ONE)[number], BenchRow[]>(PART_ONE.map((part) => [part, []]));
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < PART_ONE.length; k++) {
      const part = PART_ONE[(round + k) % PART_ONE.length]!;
      runs.get(part)!.push(inChild(part, size));
    }
  const [single, floor, durable] = PART_ONE.map((part) => medianRun(runs.get(part)!));
  return { single: single!, floor: floor!, durable: durable! };
}

/** The run of median rate, its notes naming every run's rate when there are several. */
export function medianRun(runs: readonly BenchRow[]): BenchRow {
  const byRate = [...runs].sort((a, b) => a.rate - b.rate);
  const middle = byRate[Math.floor((byRate.length - 1) / 2)];
  if (middle === undefined) throw new Error('no run to take the median of');
  if (runs.length === 1) return middle;
  const walls = runs.map((r) => `${(r.size / r.rate).toFixed(2)} s`).join(' / ');
  const note = `median of ${runs.length} runs in turns with the other part-1 rows (walls in order ${walls})`;
  return { ...middle, notes: middle.notes === undefined ? note : `${middle.notes}; ${note}` };
}

export const bench: Bench = async ({ quick, scale }) => {
  // Whole bulks: 1,000 lines each in the single-process run, 100 in the multi-process runs, and at least one bulk per process.
  const size = quick ? 5_000 : scaledSize(100_000, scale, { step: 1000 });
  const turns = partOneInTurns(size, quick ? 1 : 3);
  const [single, floor] = withCpuBeyondFloor(turns.single, turns.floor);
  const rows: BenchRow[] = [single, floor, againstFloor(turns.durable, floor)];
  if (process.env.SETTLE_BENCH_PAYMENTS_SINGLE_ONLY === '1') return rows;
  const count = quick ? 2_000 : scaledSize(20_000, scale, { step: 100, min: 400 });
  const unavailable = await mariaDbUnavailableReason();
  if (unavailable !== undefined) {
    rows.push({
      key: 'payments-processes',
      name: '1/2/4 processes on one MariaDB',
      size: count,
      unit: 'payments',
      rate: 0,
      baselineName: 'n/a',
      baselineRate: 1,
      peakRssBytes: 0,
      notes: `skipped: MariaDB not reachable (${unavailable})`,
    });
    return rows;
  }
  const runs: { n: number; ms: number; failed: number; record: Awaited<ReturnType<typeof bankRecord>> }[] = [];
  for (const n of [1, 2, 4]) runs.push({ n, ...(await multiProcess(count, n)) });
  const oneProcess = runs[0]!;
  for (const r of runs) {
    const twice = r.record.duplicateKeys > 0 || r.record.duplicateLines > 0;
    const verdict = twice
      ? 'DUPLICATES'
      : r.record.lines === count
        ? 'no payment went twice'
        : `no payment went twice, but ${count - r.record.lines} never reached the bank`;
    rows.push({
      key: `payments-processes-${r.n}`,
      name: `submit, ${count.toLocaleString('en')} payments, ${r.n} process(es), one MariaDB, ${LATENCY_MS} ms latency`,
      size: count,
      unit: 'payments',
      // A run in which a process failed has no throughput to show (0 = not measured).
      rate: r.failed > 0 ? 0 : count / (r.ms / 1000),
      baselineName: '1 process',
      baselineRate: count / (oneProcess.ms / 1000),
      peakRssBytes: 0,
      figures: { sentTwice: r.record.duplicateKeys + r.record.duplicateLines, lost: count - r.record.lines },
      notes: `${r.failed > 0 ? `FAILED: ${r.failed} of ${r.n} process(es) exited with an error (stderr above); ` : ''}${r.record.bulks} bulks, ${r.record.lines} lines at the bank; duplicate keys ${r.record.duplicateKeys}, duplicate lines ${r.record.duplicateLines}: ${verdict}`,
    });
  }
  return rows;
};

const PARTS = { single: singleProcess, floor: floorProcess, durable: durableProcess };
const part = process.env[CHILD_ENV];
if (part === 'sandbox') {
  void sandboxChild();
} else if (part === 'single' || part === 'floor' || part === 'durable') {
  PARTS[part](Number(process.env.BENCH_COUNT)).then(
    (row) => {
      process.stdout.write(JSON.stringify(row) + '\n');
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(3);
    },
  );
} else if (part === '1') {
  child().then(
    () => process.exit(0),
    (error: unknown) => {
      // The first lines are enough: a database error quotes its whole statement, ids and all.
      process.stderr.write(`bench child ${process.env.BENCH_HOLDER}: ${String(error).slice(0, 500)}\n`);
      process.exit(3);
    },
  );
}
