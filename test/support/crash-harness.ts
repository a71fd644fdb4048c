// Crash harness: runs settle's payment chain — pickup → submit → approve → status
// → status report, plus a webhook receiver — in a CHILD process against the sandbox, and kills it
// with SIGKILL at random moments while the sandbox injects faults (5xx, 429, lost responses,
// duplicated and reordered webhooks) and a person approves, fails or lets approval links expire.
// After the kill points a clean child runs the chain to the end; then the bank's own record
// (GET /__sandbox/payments) must show every payment settle accepted exactly once, and nothing
// settle did not accept.
//
// The same file is the child's entry: `node --import tsx crash-harness.ts` with
// SETTLE_CRASH_CHILD=1 runs `childMain`. The child's clock follows the sandbox's (re-read before
// each cycle), so link expiry and retention are judged in bank time.
import { seededRandom } from '../../src/domain/random.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { runApprove } from '../../jobs/approve/approve.js';
import { runStatus } from '../../jobs/status/poll.js';
import { runStatusReport } from '../../jobs/status/report.js';
import { runSubmit } from '../../jobs/submit/submit.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { createApp, newRunId } from '../../src/main/app.js';
import { paymentJobs } from '../../src/main/payment-jobs.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { openDatabase } from '../../src/store/index.js';
import { BankTimeClock, startWebhookReceiver } from './chaos/nightly-child.js';

const HERE = fileURLToPath(import.meta.url);
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const NORMAL = 'NO9386011117947';
const APPROVAL = 'NO7215031234562';
const CREDITOR = 'NO0612000000009';

export interface CrashOptions {
  /** How many times the child is killed. */
  killPoints: number;
  /** Accepted files dropped at the start (each 5 lines, some on the approval account). */
  files?: number;
  seed?: number;
  /** Kill delay range in ms after the child started its first job. */
  minDelayMs?: number;
  maxDelayMs?: number;
  log?: (line: string) => void;
}

export interface CrashFigures {
  runs: number;
  killPoints: number;
  /** Children that had finished on their own before the kill (no kill that time). */
  completedBeforeKill: number;
  /** Where the kills landed: the job the child had last started (or "startup"). */
  killsByStage: Record<string, number>;
  acceptedPayments: number;
  notAcceptedPayments: number;
  bulksAtBank: number;
  linesAtBank: number;
  duplicates: number;
  missing: number;
  extra: number;
  anomalies: number;
  settled: number;
  linksCompleted: number;
  linksFailed: number;
  wallMs: number;
}

interface BankBulk {
  idempotencyKey: string | null;
  paymentLines: { endToEndIdentification: string; transactionStatus: string }[];
}

/** What settle accepted (its database in `dir`) beside what the bank holds (the sandbox's own record). */
export interface BankComparison {
  accepted: Set<string>;
  bulks: number;
  lines: number;
  /** Lines at the bank with status ACSC. */
  settled: number;
  /** End-to-end ids the bank holds more than once, with how often. */
  duplicateLines: [string, number][];
  /** Bulks beyond the first per idempotency key. */
  duplicateKeys: number;
  /** Accepted by settle, never at the bank. */
  missing: string[];
  /** At the bank, never accepted by settle. */
  extra: string[];
}

export async function compareWithBank(sandbox: RunningSandbox, dir: string): Promise<BankComparison> {
  const accepted = await acceptedEndToEndIds(dir);
  const answer = (await control(sandbox, '/payments')) as BankBulk[] | { payments: BankBulk[] };
  const bulks = Array.isArray(answer) ? answer : answer.payments;
  const seen = new Map<string, number>();
  for (const b of bulks)
    for (const l of b.paymentLines) seen.set(l.endToEndIdentification, (seen.get(l.endToEndIdentification) ?? 0) + 1);
  const keys = bulks.map((b) => b.idempotencyKey);
  return {
    accepted,
    bulks: bulks.length,
    lines: [...seen.values()].reduce((a, b) => a + b, 0),
    settled: bulks.flatMap((b) => b.paymentLines).filter((l) => l.transactionStatus === 'ACSC').length,
    duplicateLines: [...seen].filter(([, n]) => n > 1),
    duplicateKeys: keys.length - new Set(keys).size,
    missing: [...accepted].filter((e) => !seen.has(e)),
    extra: [...seen.keys()].filter((e) => !accepted.has(e)),
  };
}

export async function runCrashCampaign(options: CrashOptions): Promise<CrashFigures> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed ?? 1);
  const dir = await mkdtemp(join(tmpdir(), 'settle-crash-'));
  const sandbox = await startSandbox({ port: 0, start: new Date().toISOString(), randomSeed: options.seed ?? 1 });
  const figures: CrashFigures = {
    runs: 0,
    killPoints: 0,
    completedBeforeKill: 0,
    killsByStage: {},
    acceptedPayments: 0,
    notAcceptedPayments: 0,
    bulksAtBank: 0,
    linesAtBank: 0,
    duplicates: 0,
    missing: 0,
    extra: 0,
    anomalies: 0,
    settled: 0,
    linksCompleted: 0,
    linksFailed: 0,
    wallMs: 0,
  };
  try {
    const root = join(dir, 'acme');
    await mkdir(join(root, 'inbox'), { recursive: true });
    const configFile = join(dir, 'settle.yaml');
    await writeFile(configFile, JSON.stringify(crashConfig(dir, root, sandbox), null, 2));
    const files = options.files ?? 4;
    const drops = new Map<number, number>([
      [1, -1],
      ...Array.from({ length: files }, (_, f) => [f * 2, f] as [number, number]),
    ]);
    figures.notAcceptedPayments = 2;
    const faults = {
      seed: options.seed ?? 1,
      webhooks: { duplicateRate: 0.3, reorder: true },
      faults: [
        { route: 'POST /api/bulk-payments/*', kind: 'lostResponse', rate: 0.25 },
        { route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, rate: 0.15 },
        { route: 'POST /api/signing-baskets', kind: 'lostResponse', rate: 0.2 },
        { route: 'POST /api/signing-baskets/*/authorizations', kind: 'error', status: 502, rate: 0.2 },
        { route: 'GET /api/**', kind: 'rateLimit', rate: 0.05, retryAfterSeconds: 0 },
        { route: 'GET /api/**', kind: 'error', status: 500, rate: 0.05 },
      ],
    };
    await control(sandbox, '/faults', faults);
    const approver = new Approver(sandbox, root, random);
    const minDelay = options.minDelayMs ?? 0;
    const maxDelay = options.maxDelayMs ?? 1500;
    for (let k = 0; k < Math.max(options.killPoints, 2 * files); k++) {
      const drop = drops.get(k);
      if (drop !== undefined) await dropFile(sandbox, root, drop);
      if (k >= options.killPoints) continue;
      const child = spawnChild(configFile, sandbox, false);
      figures.runs++;
      // Half the kills come early in a cycle (pickup, submit), half anywhere.
      const delay =
        random() < 0.5 ? Math.floor(random() * 120) : minDelay + Math.floor(random() * (maxDelay - minDelay));
      const killed = await killAfter(child, delay);
      if (killed !== undefined) {
        figures.killPoints++;
        figures.killsByStage[killed] = (figures.killsByStage[killed] ?? 0) + 1;
      } else figures.completedBeforeKill++;
      await approver.act({ fail: 0.25, waitOneRound: true });
      // Bank time moves on; once, far enough for every issued approval link to expire. Before that leap
      // one run without faults goes to its end: a bulk whose send was cut short is sent again with
      // its key only while the bank keeps idempotent answers (bank.idempotencyRetention); after a
      // week without a run it rightly waits for a person (`attention`), no fault of the chain.
      // The children's clock follows the sandbox's, which stands still between advances, so a
      // killed child's claims run ahead of it by as long as the child ran: that run first moves
      // time on as every kill point does, or it finds the bulks held and leaves them.
      if (k === Math.floor(options.killPoints / 2)) {
        sandbox.advance(HOUR / 2);
        await control(sandbox, '/faults', undefined, 'DELETE');
        const settle = spawnChild(configFile, sandbox, true);
        figures.runs++;
        if ((await exitOf(settle)) !== 0) throw new Error('the run before the week without runs failed');
        await control(sandbox, '/faults', faults);
        sandbox.advance(7 * DAY + HOUR);
      } else sandbox.advance(HOUR / 2);
      log(`kill ${k + 1}/${options.killPoints} after ${delay} ms (${killed ?? 'finished first'})`);
    }
    // Recovery: no more faults, children run to the end; the approver approves, time moves to settlement.
    await control(sandbox, '/faults', undefined, 'DELETE');
    for (let round = 0; round < 14; round++) {
      const child = spawnChild(configFile, sandbox, true);
      figures.runs++;
      const code = await exitOf(child);
      if (code !== 0) throw new Error(`the recovery run exited with ${code}`);
      await approver.act({ fail: 0, waitOneRound: false });
      sandbox.advance(DAY);
      if (round >= 3 && (await allFinal(dir))) break;
    }
    const final = spawnChild(configFile, sandbox, true);
    figures.runs++;
    await exitOf(final);

    const record = await compareWithBank(sandbox, dir);
    figures.acceptedPayments = record.accepted.size;
    figures.bulksAtBank = record.bulks;
    figures.linesAtBank = record.lines;
    figures.duplicates = record.duplicateLines.length + record.duplicateKeys;
    figures.missing = record.missing.length;
    figures.extra = record.extra.length;
    figures.anomalies = figures.duplicates + figures.missing + figures.extra;
    figures.settled = record.settled;
    figures.linksCompleted = approver.completed;
    figures.linksFailed = approver.failed;
    figures.wallMs = Date.now() - started;
    return figures;
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function crashConfig(dir: string, root: string, sandbox: RunningSandbox): Record<string, unknown> {
  return {
    dataDir: join(dir, 'data'),
    log: { level: 'error', format: 'json' },
    // A killed run's claims lapse before the next child has started (its start-up takes longer).
    schedule: { claimTtl: '1s' },
    database: { url: `sqlite:${join(dir, 'settle.sqlite')}` },
    bank: {
      baseUrl: sandbox.urls.baseUrl,
      authUrl: sandbox.urls.authUrl,
      maxRetries: 2,
      timeout: '3s',
      idempotencyRetention: '24h',
    },
    companies: [
      {
        id: 'acme',
        name: 'ACME AS',
        organisationNumber: '999999999',
        root,
        folders: { approvals: 'approvals' },
        intake: { stableFor: '1s', holidayPolicy: 'move' },
        payments: { maxLinesPerBulk: 2 },
        status: { formats: ['csv'] },
      },
    ],
  };
}

/**
 * File number `f` (5 lines, some on the approval account), or with `f` = -1 the invalid file
 * whose lines must never reach the bank. Files arrive over the campaign, so kills land in pickup too.
 */
async function dropFile(sandbox: RunningSandbox, root: string, f: number): Promise<void> {
  const now = (await control(sandbox, '')) as { now: string };
  const execution = new Date(Date.parse(now.now) + 10 * DAY).toISOString().slice(0, 10);
  const header =
    'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
  const lines =
    f < 0
      ? [
          `${NORMAL},ACME AS,${execution},BAD-1,10.00,NOK,${CREDITOR},Leverandor AS`,
          `${NORMAL},ACME AS,${execution},BAD-2,10.005,NOK,${CREDITOR},Leverandor AS`,
        ]
      : Array.from(
          { length: 5 },
          (_, i) =>
            `${i % 3 === 2 ? APPROVAL : NORMAL},ACME AS,${execution},CR-${f}-${i},${100 + 10 * f + i}.00,NOK,${CREDITOR},Leverandor AS`,
        );
  await writeFile(join(root, 'inbox', f < 0 ? 'bad.csv' : `pay-${f}.csv`), [header, ...lines].join('\n') + '\n');
}

/** The person with signing authority: opens new links from the approval reports, sometimes failing them. */
export class Approver {
  completed = 0;
  failed = 0;
  private readonly used = new Set<string>();
  private readonly seenOnce = new Set<string>();
  constructor(
    private readonly sandbox: RunningSandbox,
    private readonly root: string,
    private readonly random: () => number,
  ) {}

  async act(policy: { fail: number; waitOneRound: boolean }): Promise<void> {
    // The approvers-only folder: the copy in reports/ never carries the single-use link.
    const names = await readdir(join(this.root, 'approvals')).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.startsWith('approval-') && n.endsWith('.txt'))) {
      const text = await readFile(join(this.root, 'approvals', name), 'utf8');
      const link = /https?:\/\/\S+\/__sandbox\/sca\/\S+/.exec(text)?.[0];
      if (link === undefined || this.used.has(link)) continue;
      // Let some links sit a round, so the time jump expires them.
      if (policy.waitOneRound && !this.seenOnce.has(link)) {
        this.seenOnce.add(link);
        continue;
      }
      this.used.add(link);
      const fail = this.random() < policy.fail;
      const res = await fetch(`${this.sandbox.urls.controlUrl}/sca`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ link, ...(fail ? { outcome: 'failed' } : {}) }),
      });
      await res.text();
      if (res.ok) {
        if (fail) this.failed++;
        else this.completed++;
      }
    }
  }
}

function spawnChild(configFile: string, sandbox: RunningSandbox, once: boolean): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', HERE], {
    env: {
      ...process.env,
      SETTLE_CRASH_CHILD: '1',
      SETTLE_CRASH_CONFIG: configFile,
      SETTLE_CRASH_CONTROL: sandbox.urls.controlUrl,
      SETTLE_CRASH_ONCE: once ? '1' : '0',
      SETTLE_CLIENT_SECRET: 'sandbox-secret',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

const stages = new WeakMap<ChildProcess, string>();
const started = new WeakMap<ChildProcess, () => void>();

function exitOf(child: ChildProcess): Promise<number | null> {
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    const text = b.toString();
    for (const m of text.matchAll(/^stage:(\S+)$/gm)) {
      stages.set(child, m[1]!);
      started.get(child)?.();
    }
    stderr = (stderr + text.replace(/^stage:\S+\n/gm, '')).slice(-4000);
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) process.stderr.write(`crash child exited ${code}: ${stderr}\n`);
      resolve(code);
    }),
  );
}

/** SIGKILL after `ms`; returns the stage it hit, undefined when the child had already finished. */
async function killAfter(child: ChildProcess, ms: number): Promise<string | undefined> {
  // The delay counts from the first job, not from process start: node + tsx start-up takes
  // seconds on a busy machine, and a kill before any job ran tests nothing.
  const ready = new Promise<void>((resolve) => started.set(child, resolve));
  const exit = exitOf(child);
  if ((await Promise.race([ready.then(() => 'ready' as const), exit.then(() => 'exit' as const)])) === 'exit')
    return undefined;
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms));
  const first = await Promise.race([exit.then(() => 'exit' as const), timer]);
  if (first === 'exit') return undefined;
  const stage = stages.get(child) ?? 'startup';
  child.kill('SIGKILL');
  await exit;
  return stage;
}

export async function control(
  sandbox: RunningSandbox,
  path: string,
  body?: unknown,
  method?: string,
): Promise<unknown> {
  const res = await fetch(`${sandbox.urls.controlUrl}${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function acceptedEndToEndIds(dir: string): Promise<Set<string>> {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  try {
    const rows = await db.knex<{ end_to_end_id: string }>('payments').select('end_to_end_id');
    return new Set(rows.map((r) => r.end_to_end_id));
  } finally {
    await db.close();
  }
}

async function allFinal(dir: string): Promise<boolean> {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  try {
    const open = await db
      .knex('payments')
      .whereNotIn('state', ['ACSC', 'ACCC', 'RJCT', 'CANC'])
      .count({ n: '*' })
      .first();
    return Number((open as { n?: unknown } | undefined)?.n ?? 1) === 0;
  } finally {
    await db.close();
  }
}

// ---- the child ---------------------------------------------------------------------------------

/** settle time = the sandbox's time, re-read before each cycle. */
async function childMain(): Promise<void> {
  const env = process.env;
  const config = loadConfig({ file: env.SETTLE_CRASH_CONFIG! });
  const clock = new BankTimeClock(env.SETTLE_CRASH_CONTROL!);
  await clock.sync();
  const logger = createLogger({ level: 'error', stream: process.stderr, format: 'json' });
  const app = await createApp(config, logger, clock);
  const jobs = paymentJobs(app, { instanceId: `crash-${process.pid}` });
  const receiver = await startWebhookReceiver(app, `crash-events-${process.pid}`);
  const subs = (await (await fetch(`${env.SETTLE_CRASH_CONTROL}/subscriptions`)).json()) as {
    subscriptions: { id: string }[];
  };
  for (const s of subs.subscriptions)
    await fetch(`${env.SETTLE_CRASH_CONTROL}/subscriptions/${s.id}`, { method: 'DELETE' });
  await fetch(`${env.SETTLE_CRASH_CONTROL}/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'crash',
      events: [],
      delivery: { url: receiver.url, maxEventsPerBatch: 3, mode: 'structured' },
      validation: 'skip',
    }),
  });
  const once = env.SETTLE_CRASH_ONCE === '1';
  try {
    do {
      await clock.sync();
      const runId = newRunId();
      const stage = (name: string) => process.stderr.write(`stage:${name}\n`);
      stage('pickup');
      await runPickup({ ...app.pickupDeps(runId), sleep: () => Promise.resolve() }, config.companies);
      stage('submit');
      await runSubmit(jobs.deps('submit', runId), config.companies);
      stage('approve');
      await runApprove(jobs.deps('approve', runId), config.companies);
      stage('status');
      await runStatus(jobs.deps('status', runId), config.companies);
      stage('status-report');
      await runStatusReport(jobs.deps('status-report', runId), config.companies);
    } while (!once);
  } finally {
    await receiver.close();
    await jobs.close();
    await app.close();
  }
}

if (process.env.SETTLE_CRASH_CHILD === '1') {
  childMain().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(3);
    },
  );
}
