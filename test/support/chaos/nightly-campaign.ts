// The chaos campaign: the whole nightly chain — pickup → submit → approve →
// status → fetch → status report → export → reconcile, i.e. `settle run nightly` — in a child
// process against the sandbox bank with its faults on (5xx, 429, latency, lost responses, token
// revocation, duplicated and reordered webhooks, on the payment, basket, token, account,
// balance and transaction routes), the company's folders on a real OpenSSH server reached
// through a proxy that cuts connections mid-transfer, and the child SIGKILLed at random points.
// Files arrive during the campaign (good ones, a bad one, a byte-for-byte duplicate), a person
// approves, fails or lets approval links expire, and bank time moves on so payments settle, are
// booked, and statement days close.
//
// Then faults stop and clean nights run to the end (in this process), and the checks of
// ./final-checks.ts plus the bank's own record decide: every accepted payment exactly once at the
// bank and nothing else; every booked transaction exactly once in the exported statements;
// every input file archived or in error/ with its reports; nothing half-written anywhere; the
// reconciliation report there; the metrics' state counters equal to the rows they count. Each
// violation is an anomaly with a sentence.
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../../src/config/index.js';
import { seededRandom } from '../../../src/domain/random.js';
import { createLogger } from '../../../src/log/index.js';
import { createApp } from '../../../src/main/app.js';
import type { StepResult } from '../../../jobs/nightly/nightly.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { bankToday } from '../../../src/sandbox/time.js';
import type { Database } from '../../../src/store/index.js';
import { SftpFileStore } from '../../../src/transport/index.js';
import { Approver, compareWithBank, control } from '../crash-harness.js';
import { startSshd, type SshdServer } from '../sshd.js';
import { finalChecks, type CheckFigures, type DroppedFile } from './final-checks.js';
import { startFlakyProxy } from './flaky-proxy.js';
import { BankTimeClock, oneNight, startWebhookReceiver } from './nightly-child.js';
import { httpTarget, startWebhookRelay, type WebhookRelay } from './webhook-relay.js';
import { stateCountDrift } from '../state-counts.js';

const CHILD = fileURLToPath(new URL('./nightly-child.ts', import.meta.url));
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const NORMAL = 'NO9386011117947';
const APPROVAL = 'NO7215031234562';
const CREDITOR = 'NO0612000000009';
const ORG = '999999999';
const FOLDERS = {
  inbox: 'inbox',
  archive: 'archive',
  error: 'error',
  status: 'status',
  statements: 'statements',
  reports: 'reports',
  approvals: 'approvals',
};
const STATEMENT_FORMATS = ['camt.053.001.02', 'csv'] as const;
const STATEMENT_SUFFIXES = ['camt.053.001.02.xml', 'csv'];
const STEPS = ['pickup', 'submit', 'approve', 'status', 'fetch', 'status-report', 'export', 'consents', 'reconcile'];

export interface ChaosOptions {
  /** How many times a child is started and SIGKILLed. */
  killPoints: number;
  /** Good files dropped over the campaign (5 lines each, some on the approval account). */
  files?: number;
  seed?: number;
  /** Kills land up to this many ms after the child began its first step (default 4000). */
  maxDelayMs?: number;
  /**
   * How many instances run the chain at once (default 1). With 2, each kill point starts a second
   * child beside the first, killed at its own random moment, and the recovery nights run two apps
   * at the same time: claims and leases must keep them from doing any work twice.
   */
  instances?: 1 | 2;
  /** Share of SFTP connections the proxy cuts (default 0.5). */
  sftpDropRate?: number;
  /** An sshd already running (the test suite's); else the campaign starts its own. */
  sshd?: SshdServer;
  log?: (line: string) => void;
}

/** The campaign's own figures, and the counts of the final checks (./final-checks.ts). */
export interface ChaosFigures extends Omit<CheckFigures, 'anomalies'> {
  runs: number;
  /** Instances running the chain at once. */
  instances: number;
  killPoints: number;
  completedBeforeKill: number;
  killsByStage: Record<string, number>;
  faultsInjected: Record<string, number>;
  sftpConnections: number;
  sftpDropsInjected: number;
  sftpDropsAfterHandshake: number;
  acceptedPayments: number;
  bulksAtBank: number;
  linesAtBank: number;
  settledAtBank: number;
  duplicatesAtBank: number;
  missingAtBank: number;
  extraAtBank: number;
  filesDropped: number;
  linksCompleted: number;
  linksFailed: number;
  recoveryNights: number;
  anomalies: number;
  anomalyList: string[];
  wallMs: number;
}

export async function runChaosCampaign(options: ChaosOptions): Promise<ChaosFigures> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 1;
  const random = seededRandom(seed);
  const dir = await mkdtemp(join(tmpdir(), 'settle-chaos-'));
  const ownSshd = options.sshd === undefined;
  const sshd = options.sshd ?? (await startSshd());
  const companyDir = `acme-${process.pid}-${Date.now()}`;
  const root = join(sshd.filesRoot, companyDir);
  // Bank time starts at the real time (to the minute) and only moves ahead of it: settle judges the
  // age of files it left (NAME.part) by its clock against the files' real times.
  const start = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  const sandbox = await startSandbox({ port: 0, start, randomSeed: seed });
  const sftpDropRate = options.sftpDropRate ?? 0.5;
  const proxy = await startFlakyProxy({
    target: { host: sshd.host, port: sshd.port },
    seed,
    dropRate: sftpDropRate,
  });
  const relay = await startWebhookRelay({ orderOf: (id) => sandbox.sandbox.events.log.findIndex((e) => e.id === id) });
  // The ERP's side of the SFTP server: straight to sshd, never through the flaky proxy.
  const erp = new SftpFileStore({
    host: sshd.host,
    port: sshd.port,
    username: sshd.username,
    privateKey: sshd.privateKey,
    hostKeySha256: sshd.hostKeySha256,
    root: sshd.filesRoot,
  });
  const anomalies: string[] = [];
  const instances = options.instances ?? 1;
  const figures: ChaosFigures = {
    runs: 0,
    instances,
    killPoints: 0,
    completedBeforeKill: 0,
    killsByStage: {},
    faultsInjected: {},
    sftpConnections: 0,
    sftpDropsInjected: 0,
    sftpDropsAfterHandshake: 0,
    acceptedPayments: 0,
    bulksAtBank: 0,
    linesAtBank: 0,
    settledAtBank: 0,
    duplicatesAtBank: 0,
    missingAtBank: 0,
    extraAtBank: 0,
    transactionsBooked: 0,
    transactionsExported: {},
    statementFiles: 0,
    statusFiles: 0,
    reconciliationReports: 0,
    reconciliationLoneHalves: 0,
    filesDropped: 0,
    filesArchived: 0,
    filesInError: 0,
    linksCompleted: 0,
    linksFailed: 0,
    recoveryNights: 0,
    anomalies: 0,
    anomalyList: anomalies,
    wallMs: 0,
  };
  try {
    for (const folder of Object.values(FOLDERS)) await erp.ensureDir(`${companyDir}/${folder}`);
    const keyFile = join(dir, 'sftp_key');
    await writeFile(keyFile, sshd.privateKey, { mode: 0o600 });
    const configFile = join(dir, 'settle.yaml');
    await writeFile(
      configFile,
      JSON.stringify(
        chaosConfig(dir, root, sandbox, {
          host: proxy.host,
          port: proxy.port,
          username: sshd.username,
          keyFile,
          hostKeySha256: sshd.hostKeySha256,
        }),
        null,
        2,
      ),
    );
    await control(sandbox, '/subscriptions', {
      name: 'chaos',
      events: [],
      delivery: { url: relay.url, maxEventsPerBatch: 3, mode: 'structured' },
      retryPolicy: { maxEventDeliveryAttempts: 8 },
      validation: 'skip',
    });
    const faults = { seed, webhooks: { duplicateRate: 0.3, reorder: true }, faults: FAULTS };
    await control(sandbox, '/faults', faults);

    // Inputs: good files over the first kills, the bad one early, the duplicate once its original is archived.
    const files = options.files ?? 4;
    const dropped: DroppedFile[] = [];
    const drop = async (name: string, text: string, expect: DroppedFile['expect']) => {
      await erp.writeAtomic(`${companyDir}/${FOLDERS.inbox}/${name}`, text);
      dropped.push({ name, sha256: createHash('sha256').update(text).digest('hex'), expect });
    };
    const approver = new Approver(sandbox, root, random);
    const maxDelay = options.maxDelayMs ?? 4000;
    let duplicateDropped = false;
    /** The ERP sends pay-0.csv again, byte for byte, under another name — once the original is archived. */
    const dropDuplicate = async () => {
      const day = duplicateDropped ? undefined : await archiveDay(root, 'pay-0.csv');
      if (day === undefined) return;
      const bytes = await erp.readBuffer(`${companyDir}/${FOLDERS.archive}/${day}/pay-0.csv`);
      await drop('pay-0-resent.csv', bytes.toString('utf8'), 'error');
      duplicateDropped = true;
    };
    let revocations = 0;
    let spare: ChildProcess | undefined;
    const total = Math.max(options.killPoints, 2 * files);
    for (let k = 0; k < total; k++) {
      if (k % 2 === 0 && k / 2 < files) await drop(`pay-${k / 2}.csv`, await paymentFile(sandbox, k / 2), 'archive');
      if (k === 1) await drop('bad.csv', await paymentFile(sandbox, -1), 'error');
      if (k >= 3) await dropDuplicate();
      if (k >= options.killPoints) continue;
      if (k % 9 === 4) {
        await control(sandbox, '/faults', { revokeTokens: true });
        revocations++;
      }
      // The next child loads its modules while this one runs (see nightly-child.ts).
      const child = spare ?? spawnChild(configFile, sandbox, relay);
      spare = k + 1 < options.killPoints ? spawnChild(configFile, sandbox, relay) : undefined;
      child.stdin?.write('go\n');
      figures.runs++;
      // Half the kills aim at one step (up to 100 ms into it): a night spends most of its time in
      // pickup and fetch, so time alone rarely hits a quick step such as submit. The rest land
      // anywhere up to maxDelay after the night began.
      const aim = random() < 0.5 ? STEPS[Math.floor(random() * STEPS.length)] : undefined;
      const delay = aim !== undefined ? Math.floor(random() * 100) : Math.floor(random() * maxDelay);
      // The second instance runs beside the first from the same moment, killed at a moment of its own.
      const partner = instances === 2 ? spawnChild(configFile, sandbox, relay) : undefined;
      partner?.stdin?.write('go\n');
      if (partner) figures.runs++;
      const kills = [killAfter(child, delay, aim)];
      if (partner) kills.push(killAfter(partner, Math.floor(random() * maxDelay)));
      const hit = await Promise.all(kills);
      for (const killed of hit) {
        if (killed !== undefined) {
          figures.killPoints++;
          figures.killsByStage[killed] = (figures.killsByStage[killed] ?? 0) + 1;
        } else figures.completedBeforeKill++;
      }
      await approver.act({ fail: 0.25, waitOneRound: true });
      // Bank time moves on; once, far enough for every approval link issued so far to expire. Before that
      // leap one night without bank faults or SFTP cuts runs to its end: a bulk whose send was cut
      // short is sent again with its key only while the bank keeps idempotent answers
      // (bank.idempotencyRetention); after a week without a night it rightly waits for a person,
      // no fault of the chain. Likewise a file still in the inbox: read after the leap, the date
      // the ERP gave it (8 days on) is today, which the bank refuses — rightly rejected, not lost.
      // The children's clock follows the sandbox's, which stands still between advances, so a
      // killed child's claims run ahead of it by as long as the child ran: the clean night first
      // moves time on as every kill point does, or it finds the chain held and does nothing.
      if (k === Math.floor(options.killPoints / 2)) {
        sandbox.advance(HOUR / 2);
        await control(sandbox, '/faults', undefined, 'DELETE');
        proxy.setDropRate(0);
        const night = spawnChild(configFile, sandbox, relay, true);
        night.stdin?.write('go\n');
        figures.runs++;
        if ((await exits.get(night)) !== 0)
          anomalies.push('the clean night before the leap did not run its whole chain');
        proxy.setDropRate(sftpDropRate);
        await control(sandbox, '/faults', faults);
        sandbox.advance(7 * DAY + HOUR);
      } else sandbox.advance(HOUR / 2);
      log(
        `kill ${k + 1}/${options.killPoints} after ${delay} ms (${hit.map((h) => h ?? 'finished first').join(' + ')}); sftp drops so far ${proxy.figures.drops}`,
      );
    }

    // What the faults did, read before they are cleared.
    const rules = (await control(sandbox, '/faults')) as { faults: { kind: string; hits: number }[] };
    for (const r of rules.faults) figures.faultsInjected[r.kind] = (figures.faultsInjected[r.kind] ?? 0) + r.hits;
    figures.faultsInjected.tokenRevocation = revocations;

    // Recovery: no faults, no drops; clean nights in this process until everything is final,
    // then one more so the last settlement day closes and is exported.
    await control(sandbox, '/faults', undefined, 'DELETE');
    proxy.setDropRate(0);
    figures.faultsInjected.webhookDuplicate = relay.figures.duplicates;
    figures.faultsInjected.webhookReordered = relay.figures.reordered;
    const lastNight = await recover(
      { configFile, sandbox, relay, approver },
      { anomalies, log, beforeNight: dropDuplicate, instances },
    );
    if (!duplicateDropped) anomalies.push('pay-0.csv was never archived, so its duplicate could not be dropped');
    figures.recoveryNights = lastNight.nights;
    figures.runs += lastNight.nights;

    // (a) every accepted payment exactly once at the bank, nothing else.
    const record = await compareWithBank(sandbox, dir);
    const { accepted } = record;
    figures.acceptedPayments = accepted.size;
    figures.bulksAtBank = record.bulks;
    figures.linesAtBank = record.lines;
    figures.settledAtBank = record.settled;
    for (const [e2e, n] of record.duplicateLines) anomalies.push(`payment ${e2e} is at the bank ${n} times`);
    figures.duplicatesAtBank = record.duplicateLines.length;
    if (record.duplicateKeys > 0)
      anomalies.push(`${record.duplicateKeys} idempotency key(s) used for more than one bulk at the bank`);
    for (const e2e of record.missing) anomalies.push(`accepted payment ${e2e} never reached the bank`);
    figures.missingAtBank = record.missing.length;
    for (const e2e of record.extra) anomalies.push(`the bank holds payment ${e2e}, which settle never accepted`);
    figures.extraAtBank = record.extra.length;
    if (accepted.size !== files * 5)
      anomalies.push(
        `settle accepted ${accepted.size} payments, expected ${files * 5} (${files} good files of 5 lines)`,
      );

    // (b)–(e) read back from the folders.
    const today = bankToday(sandbox.sandbox.clock.now());
    const booked = sandbox.sandbox.state
      .accountsIn('sandbox', ORG)
      .flatMap((a) => sandbox.sandbox.state.transactionsOf(a.id))
      .filter((t) => t.bookingDate < today)
      .map((t) => ({ entryReference: t.entryReference, accountId: t.accountId, bookingDate: t.bookingDate }));
    const checked = await finalChecks({
      root,
      folders: FOLDERS,
      dropped,
      booked,
      statementSuffixes: STATEMENT_SUFFIXES,
    });
    const { anomalies: found, ...counts } = checked;
    anomalies.push(...found);
    if (!booked.some((b) => b.bookingDate > start.slice(0, 10)))
      anomalies.push('no payment was booked during the campaign: the statements checked only the seed history');
    Object.assign(figures, counts);
    figures.filesDropped = dropped.length;
    figures.linksCompleted = approver.completed;
    figures.linksFailed = approver.failed;
    figures.sftpConnections = proxy.figures.connections;
    figures.sftpDropsInjected = proxy.figures.drops;
    figures.sftpDropsAfterHandshake = proxy.figures.dropsAfterHandshake;
    figures.anomalies = anomalies.length;
    figures.wallMs = Date.now() - started;
    for (const a of anomalies) log(`ANOMALY: ${a}`);
    return figures;
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    relay.setTarget(undefined);
    await erp.close();
    await relay.close();
    await proxy.close();
    await sandbox.close();
    if (ownSshd) await sshd.stop();
    else await rm(root, { recursive: true, force: true });
    // A campaign with anomalies keeps its directory (settle's database, the data folder) to read.
    if (anomalies.length === 0) await rm(dir, { recursive: true, force: true });
    else log(`kept ${dir} for inspection`);
  }
}

/** Every fault kind the sandbox has, on every route the nightly chain uses. */
const FAULTS = [
  { route: 'POST /api/bulk-payments/*', kind: 'lostResponse', rate: 0.2 },
  { route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, rate: 0.1 },
  { route: 'POST /api/bulk-payments/*', kind: 'latency', latencyMs: 300, rate: 0.1 },
  { route: 'POST /api/signing-baskets', kind: 'lostResponse', rate: 0.2 },
  { route: 'POST /api/signing-baskets/*/authorizations', kind: 'error', status: 502, rate: 0.2 },
  { route: 'POST /api/signing-baskets/*/authorizations', kind: 'lostResponse', rate: 0.1 },
  { route: 'POST /id/**', kind: 'error', status: 503, rate: 0.05 },
  { route: 'POST /id/**', kind: 'rateLimit', rate: 0.05, retryAfterSeconds: 0 },
  { route: 'GET /api/accounts', kind: 'error', status: 500, rate: 0.05 },
  { route: 'GET /api/accounts/*/transactions', kind: 'error', status: 503, rate: 0.08 },
  { route: 'GET /api/accounts/*/transactions', kind: 'lostResponse', rate: 0.05 },
  { route: 'GET /api/accounts/*/transactions', kind: 'latency', latencyMs: 400, rate: 0.1 },
  { route: 'GET /api/accounts/*/balances', kind: 'rateLimit', rate: 0.08, retryAfterSeconds: 0 },
  { route: 'GET /api/accounts/*/balances', kind: 'error', status: 500, rate: 0.05 },
  { route: 'GET /api/bulk-payments/**', kind: 'lostResponse', rate: 0.05 },
  { route: 'GET /api/**', kind: 'rateLimit', rate: 0.04, retryAfterSeconds: 0 },
  { route: 'GET /api/**', kind: 'error', status: 500, rate: 0.04 },
  { route: 'GET /api/**', kind: 'latency', latencyMs: 150, rate: 0.05 },
];

interface SftpEndpoint {
  host: string;
  port: number;
  username: string;
  keyFile: string;
  hostKeySha256: string;
}

function chaosConfig(dir: string, root: string, sandbox: RunningSandbox, sftp: SftpEndpoint): Record<string, unknown> {
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
    transports: {
      erp: {
        type: 'sftp',
        host: sftp.host,
        port: sftp.port,
        username: sftp.username,
        privateKey: { file: sftp.keyFile },
        hostKeySha256: sftp.hostKeySha256,
        timeout: '10s',
      },
    },
    companies: [
      {
        id: 'acme',
        name: 'ACME AS',
        organisationNumber: ORG,
        transport: 'erp',
        root,
        folders: FOLDERS,
        intake: { stableFor: '1s', holidayPolicy: 'move' },
        payments: { maxLinesPerBulk: 2 },
        status: { formats: ['pain.002.001.03', 'csv'] },
        statements: { formats: [...STATEMENT_FORMATS] },
      },
    ],
  };
}

/** File `f` (5 lines, some on the approval account), or with f = -1 the invalid file none of whose lines may reach the bank. */
async function paymentFile(sandbox: RunningSandbox, f: number): Promise<string> {
  const now = (await control(sandbox, '')) as { now: string };
  const execution = new Date(Date.parse(now.now) + 8 * DAY).toISOString().slice(0, 10);
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
            `${i % 3 === 2 ? APPROVAL : NORMAL},ACME AS,${execution},CH-${f}-${i},${100 + 10 * f + i}.00,NOK,${CREDITOR},Leverandor AS`,
        );
  return [header, ...lines].join('\n') + '\n';
}

async function archiveDay(root: string, name: string): Promise<string | undefined> {
  for (const day of await readdir(join(root, FOLDERS.archive)).catch(() => [] as string[])) {
    if ((await readdir(join(root, FOLDERS.archive, day)).catch(() => [] as string[])).includes(name)) return day;
  }
  return undefined;
}

/** Clean nights in this process; returns how many ran. Steps failing in the last night are anomalies. */
async function recover(
  world: { configFile: string; sandbox: RunningSandbox; relay: WebhookRelay; approver: Approver },
  run: { anomalies: string[]; log: (line: string) => void; beforeNight: () => Promise<void>; instances: number },
): Promise<{ nights: number }> {
  const { configFile, sandbox, relay, approver } = world;
  const { anomalies, log, beforeNight, instances } = run;
  const config = loadConfig({ file: configFile, env: { ...process.env, SETTLE_CLIENT_SECRET: 'sandbox-secret' } });
  const clock = new BankTimeClock(sandbox.urls.controlUrl);
  await clock.sync();
  const logger = () => createLogger({ level: 'error', stream: process.stderr, format: 'json' });
  const app = await createApp(config, logger(), clock);
  // Two instances: a second app on the same database runs each recovery night beside the first.
  const twin = instances === 2 ? await createApp(config, logger(), clock) : undefined;
  const receiver = await startWebhookReceiver(app, `chaos-recovery-${process.pid}`);
  relay.setTarget(httpTarget(receiver.url));
  let nights = 0;
  let failed: StepResult[] = [];
  try {
    let finalSince: number | undefined;
    for (let round = 0; round < 30; round++) {
      await beforeNight();
      await clock.sync();
      const [night, twinNight] = await Promise.all([
        oneNight(app, config, () => undefined),
        twin ? oneNight(twin, config, () => undefined) : undefined,
      ]);
      nights++;
      failed = [...night.steps, ...(twinNight?.steps ?? [])].filter((s) => !s.ok);
      for (const s of failed) log(`recovery night ${nights}: ${s.step} ${s.summary}`);
      await approver.act({ fail: 0, waitOneRound: false });
      if (finalSince === undefined && (await allFinal(app.db.knex))) finalSince = round;
      // One more day after the last payment is final: its booking day closes and is exported.
      if (finalSince !== undefined && round >= finalSince + 1) break;
      sandbox.advance(DAY);
    }
    if (finalSince === undefined) anomalies.push('payments were still not final after 30 clean nights');
    // The night the checks read: bank time as it is now, nothing moves after it.
    await clock.sync();
    const last = await oneNight(app, config, () => undefined);
    nights++;
    failed = last.steps.filter((s) => !s.ok);
    for (const s of failed) anomalies.push(`the last clean night's ${s.step} step failed: ${s.summary}`);
    if (!last.steps.some((s) => s.step === 'reconcile' && s.ok))
      anomalies.push('reconciliation did not run in the last clean night');
    // The metrics' counters after every kill: a transaction killed mid-way took its differences with it.
    for (const [key, { counted, rows }] of Object.entries(await stateCountDrift(app.db.knex)))
      anomalies.push(`the state counter ${key} says ${counted}, the rows ${rows}`);
  } finally {
    relay.setTarget(undefined);
    await receiver.close();
    await app.close();
    await twin?.close();
  }
  return { nights };
}

type Knex = Database['knex'];

async function allFinal(knex: Knex): Promise<boolean> {
  const open = await knex('payments').whereNotIn('state', ['ACSC', 'ACCC', 'RJCT', 'CANC']).count({ n: '*' }).first();
  return Number((open as { n?: unknown } | undefined)?.n ?? 1) === 0;
}

// ---- the children -------------------------------------------------------------------------------

const children = new Set<ChildProcess>();
const stages = new WeakMap<ChildProcess, string>();
const stageListeners = new WeakMap<ChildProcess, (stage: string) => void>();
const exits = new WeakMap<ChildProcess, Promise<number | null>>();

/** A child that runs nights until killed; with `once`, one night to its end. */
function spawnChild(configFile: string, sandbox: RunningSandbox, relay: WebhookRelay, once = false): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      SETTLE_CHAOS_CHILD: '1',
      SETTLE_CHAOS_CONFIG: configFile,
      SETTLE_CHAOS_CONTROL: sandbox.urls.controlUrl,
      SETTLE_CLIENT_SECRET: 'sandbox-secret',
      SETTLE_CHAOS_WAIT: '1',
      ...(once ? { SETTLE_CHAOS_ONCE: '1' } : {}),
    },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  let receiving = false;
  child.stdin?.on('error', () => undefined); // a child killed before it read "go"
  child.stderr?.on('data', (b: Buffer) => {
    const text = b.toString();
    const hook = /^webhook:(\S+)$/m.exec(text)?.[1];
    if (hook !== undefined) {
      relay.setTarget(httpTarget(hook));
      receiving = true;
    }
    for (const m of text.matchAll(/^stage:(\S+)$/gm)) {
      stages.set(child, m[1]!);
      stageListeners.get(child)?.(m[1]!);
    }
    stderr = (stderr + text.replace(/^(stage|webhook):\S+\n/gm, '')).slice(-4000);
  });
  exits.set(
    child,
    new Promise((resolve) =>
      child.on('exit', (code) => {
        children.delete(child);
        if (receiving) relay.setTarget(undefined);
        if (code !== 0 && code !== null) process.stderr.write(`chaos child exited ${code}: ${stderr}\n`);
        resolve(code);
      }),
    ),
  );
  return child;
}

/**
 * SIGKILL `ms` after the child began step `aim` (default: its first step); the step it hit, or
 * undefined when it had exited. A step not reached within 30 s is given up on: the kill comes then.
 */
async function killAfter(child: ChildProcess, ms: number, aim?: string): Promise<string | undefined> {
  // Counted from a step, not process start: node + tsx start-up takes a second or more.
  const began = new Promise<void>((resolve) => {
    stageListeners.set(child, (stage) => {
      if (aim === undefined || stage === aim) resolve();
    });
    if (aim !== undefined) setTimeout(resolve, 30_000).unref();
  });
  const exit = exits.get(child)!;
  if ((await Promise.race([began.then(() => 'began' as const), exit.then(() => 'exit' as const)])) === 'exit')
    return undefined;
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms));
  if ((await Promise.race([exit.then(() => 'exit' as const), timer])) === 'exit') return undefined;
  const stage = stages.get(child) ?? 'startup';
  child.kill('SIGKILL');
  await exit;
  return stage;
}
