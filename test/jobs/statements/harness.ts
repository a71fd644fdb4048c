// Shared set-up of the statement job tests: a sandbox bank over real HTTP (port 0), a fresh
// SQLite file, a local statements folder, and the jobs' dependencies wired as the composition
// root does. Jobs run on the sandbox's clock, so moving sandbox time moves "today" for both.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportStatementsDeps } from '../../../jobs/statements/export.js';
import type { FetchStatementsDeps } from '../../../jobs/statements/fetch.js';
import { HttpBankClient, type BankClient } from '../../../src/bank/index.js';
import { configSchema, type CompanyConfig, type ConfigInput } from '../../../src/config/index.js';
import type { Clock } from '../../../src/domain/clock.js';
import { Secret, silentLogger } from '../../../src/log/index.js';
import { SEED, startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { openDatabase, type Database } from '../../../src/store/database.js';
import { ExportRepository } from '../../../src/store/exports.js';
import { ExportFloorRepository, LegalSequenceRepository, PaymentRepository } from '../../../src/store/index.js';
import { StatementDayRepository } from '../../../src/store/statement-days.js';
import { StatementRepository } from '../../../src/store/statements.js';
import { LocalFileStore } from '../../../src/transport/index.js';
import { makeTempDir } from '../../support/tmp.js';

export { SEED };

export type CompanyInput = NonNullable<ConfigInput['companies']>[number];

export interface StatementHarness {
  dir: string;
  root: string;
  sandbox: RunningSandbox;
  bank: HttpBankClient;
  db: Database;
  clock: Clock;
  company: CompanyConfig;
  fetchDeps(bank?: BankClient): FetchStatementsDeps;
  exportDeps(overrides?: Partial<ExportStatementsDeps>): ExportStatementsDeps;
  close(): Promise<void>;
}

export function companyConfig(root: string, statements: CompanyInput['statements'] = {}): CompanyConfig {
  return configSchema.parse({
    companies: [{ id: 'acme', name: 'Sandbox AS', organisationNumber: SEED.resourceGroupName, root, statements }],
  }).companies[0]!;
}

export async function startStatementHarness(
  options: {
    pageSize?: number;
    statements?: CompanyInput['statements'];
    database?: Database;
    dir?: string;
    /** Keep the seeded company's nordbank accounts; by default only its two testbank accounts. */
    secondBank?: boolean;
    /** The sandbox's (and so the jobs') start instant; the sandbox's default when absent. */
    start?: string;
  } = {},
): Promise<StatementHarness> {
  const { dir, cleanup } = await makeTempDir();
  const sandbox = await startSandbox({
    port: 0,
    pageSize: options.pageSize ?? 2,
    ...(options.start === undefined ? {} : { start: options.start }),
  });
  // These tests are about one account's days; several banks are covered by statement-jobs and
  // test/jobs/payments/multibank.test.ts.
  if (options.secondBank !== true)
    for (const id of [SEED.nordbankAccountId, SEED.pendingAccountId]) sandbox.sandbox.state.accounts.delete(id);
  const clock: Clock = { now: () => sandbox.sandbox.clock.now() };
  const bank = new HttpBankClient({
    baseUrl: sandbox.urls.baseUrl,
    authUrl: sandbox.urls.authUrl,
    tenantId: SEED.tenant,
    clientId: SEED.clientId,
    clientSecret: new Secret(SEED.clientSecret),
    subscriptionId: SEED.subscriptionId,
    timeoutMs: 5_000,
    logger: silentLogger(),
    clock,
  });
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  await db.migrate();
  const root = join(dir, 'acme');
  await mkdir(root); // settle never creates a company root (issue #50)
  const company = companyConfig(
    root,
    options.statements ?? { formats: ['camt.053.001.02', 'camt.053.001.08', 'csv'], csv: { decimalSeparator: '.' } },
  );
  const store = new LocalFileStore(root);
  const logger = silentLogger();
  return {
    dir,
    root,
    sandbox,
    bank,
    db,
    clock,
    company,
    fetchDeps: (client = bank) => ({
      bank: client,
      db,
      statements: new StatementRepository(db, clock),
      days: new StatementDayRepository(db, clock),
      clock,
      logger,
      timeZone: 'Europe/Oslo',
    }),
    exportDeps: (overrides = {}) => ({
      db,
      statements: new StatementRepository(db, clock),
      days: new StatementDayRepository(db, clock),
      exports: new ExportRepository(db, clock),
      payments: new PaymentRepository(db, clock),
      legalSequence: new LegalSequenceRepository(db, clock),
      exportFloors: new ExportFloorRepository(db),
      clock,
      logger,
      timeZone: 'Europe/Oslo',
      fileStore: () => Promise.resolve(store),
      ...overrides,
    }),
    async close() {
      await bank.close();
      await sandbox.close();
      await store.close();
      await db.close();
      await cleanup();
    },
  };
}
