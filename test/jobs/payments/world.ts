// A test world for the payment jobs: the sandbox over HTTP, a real SQLite file (or a MariaDB
// database), the real bank client, a company folder on disk, and one ManualClock moved together
// with the sandbox's clock. Payments are stored through the real file ledger.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PaymentJobDeps } from '../../../jobs/payments/deps.js';
import type { PickupDeps } from '../../../jobs/pickup/pickup.js';
import { HttpBankClient } from '../../../src/bank/index.js';
import { configSchema, type CompanyConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/domain/clock.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';
import { silentLogger, type Logger } from '../../../src/log/index.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../../src/store/index.js';
import { profileLoader } from '../../../src/main/profiles.js';
import { LocalFileStore } from '../../../src/transport/index.js';
import { makeTempDir } from '../../support/tmp.js';

export const START = '2026-01-05T08:00:00Z';
export const NORMAL_IBAN = 'NO9386011117947';
export const APPROVAL_IBAN = 'NO7215031234562';
export const CREDITOR_IBAN = 'NO0612000000009';

export interface World {
  dir: string;
  sandbox: RunningSandbox;
  clock: ManualClock;
  db: Database;
  store: Store;
  bank: HttpBankClient;
  company: CompanyConfig;
  logger: Logger;
  deps(runId?: string, extra?: Partial<PaymentJobDeps>): PaymentJobDeps;
  /** Moves settle's and the sandbox's clocks together. */
  advance(ms: number): void;
  control(path: string, body?: unknown, method?: string): Promise<unknown>;
  /** Stores an accepted file with these payments; returns its id. */
  acceptFile(name: string, payments: readonly Partial<PaymentInstruction>[]): Promise<string>;
  close(): Promise<void>;
}

export interface WorldOptions {
  databaseUrl?: string;
  company?: Record<string, unknown>;
  sandbox?: Parameters<typeof startSandbox>[0];
  retentionMs?: number;
}

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const { dir, cleanup } = await makeTempDir();
  const sandbox = await startSandbox({ port: 0, start: START, ...options.sandbox });
  const clock = new ManualClock(START);
  const db = await openDatabase({ url: options.databaseUrl ?? `sqlite:${join(dir, 'settle.sqlite')}` });
  await db.migrate();
  const store = createStore(db, clock);
  const logger = silentLogger();
  const bank = new HttpBankClient({
    baseUrl: sandbox.urls.baseUrl,
    authUrl: sandbox.urls.authUrl,
    tenantId: 'sandbox',
    clientId: 'sandbox-client',
    clientSecret: { reveal: () => 'sandbox-secret' },
    subscriptionId: 'sandbox',
    logger,
    clock,
    maxRetries: 3,
    timeoutMs: 5000,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    sleep: () => Promise.resolve(),
  });
  const root = join(dir, 'acme');
  await mkdir(root, { recursive: true });
  const company = configSchema.parse({
    companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root, ...options.company }],
  }).companies[0]!;
  const fileStore = new LocalFileStore(root);
  let fileNo = 0;
  const world: World = {
    dir,
    sandbox,
    clock,
    db,
    store,
    bank,
    company,
    logger,
    deps: (runId = 'run-1', extra = {}) => ({
      store,
      bank,
      clock,
      logger,
      timeZone: 'Europe/Oslo',
      holder: `test:${runId}`,
      runId,
      idempotencyRetentionMs: options.retentionMs ?? 24 * 3600_000,
      fileStore: () => Promise.resolve(fileStore),
      ...extra,
    }),
    advance(ms) {
      clock.advance(ms);
      sandbox.advance(ms);
    },
    async control(path, body, method) {
      const res = await fetch(`${sandbox.urls.controlUrl}${path}`, {
        method: method ?? (body === undefined ? 'GET' : 'POST'),
        ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return text === '' ? undefined : (JSON.parse(text) as unknown);
    },
    async acceptFile(name, payments) {
      fileNo++;
      const full: PaymentInstruction[] = payments.map((p, i) => ({
        debtorIban: NORMAL_IBAN,
        debtorName: 'ACME AS',
        requestedExecutionDate: '2026-01-07' as LocalDate,
        endToEndId: `E2E-${fileNo}-${i + 1}`,
        amount: { minor: 10_000n, currency: 'NOK' },
        creditorIban: CREDITOR_IBAN,
        creditorName: 'Leverandor AS',
        lineNumber: i + 1,
        ...p,
      }));
      const sha256 = `${String(fileNo).padStart(4, '0')}${'ab'.repeat(30)}`;
      const file = await store.files.recordAcceptedFile(
        { company: company.id, fileName: name, sha256, format: 'csv:generic', sizeBytes: 100, receivedAt: clock.now() },
        full,
      );
      return file.id;
    },
    async close() {
      await bank.close();
      await db.close();
      await sandbox.close();
      await cleanup();
    },
  };
  return world;
}

export interface SandboxBulk {
  paymentId: string;
  idempotencyKey: string | null;
  transactionStatus: string;
  debtorIban: string;
  paymentLines: { endToEndIdentification: string; transactionStatus: string }[];
}

export async function bankBulks(world: World): Promise<SandboxBulk[]> {
  const body = (await world.control('/payments')) as SandboxBulk[] | { payments: SandboxBulk[] };
  return Array.isArray(body) ? body : body.payments;
}

/** Pickup over the world's company folder and store (real intake, no waiting for stable files). */
export function worldPickupDeps(world: World, extra: Partial<PickupDeps> = {}): PickupDeps {
  return {
    ledger: world.store.files,
    clock: world.clock,
    logger: world.logger,
    timeZone: 'Europe/Oslo',
    workDir: join(world.dir, 'work'),
    fileStore: () => Promise.resolve(new LocalFileStore(world.company.root)),
    profile: profileLoader(),
    sleep: () => Promise.resolve(),
    ...extra,
  };
}
