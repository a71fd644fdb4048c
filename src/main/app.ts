// The composition root: builds the adapters the jobs need from the configuration, once, and
// closes them at the end. Jobs receive plain dependencies and never read the configuration file.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { loadAuditedControls } from '../../jobs/controls/index.js';
import { answerCamt055 } from '../../jobs/cancel/index.js';
import {
  debtorAccountCheck,
  directoryOncePerRun,
  isUnreachable,
  type DirectoryDeps,
} from '../../jobs/accounts/index.js';
import type { PickupDeps } from '../../jobs/pickup/index.js';
import type { ReconcileDeps } from '../../jobs/reconcile/index.js';
import type { BankClient, BankObserver } from '../bank/index.js';
import { companyBanks, type CompanyConfig, type Config } from '../config/index.js';
import type { ConsentState } from '../domain/reconcile/index.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { runLogger, type Logger } from '../log/index.js';
import { resolveReconcileConfig } from '../domain/reconcile/index.js';
import { createStore, type Database, type Store } from '../store/index.js';
import { createBankClient } from './bank.js';
import { openConfiguredDatabase } from './database.js';
import { profileLoader, receivablesProfileLoader } from './profiles.js';
import { CompanyFileStores, type FileStoreProvider } from './file-stores.js';

export interface App {
  /** The running configuration: read it when needed, not once, so a reload (reload.ts) reaches every job. */
  readonly config: Readonly<Config>;
  /** Swaps the running configuration (settle serve's reload, after it validated and merged the new one). */
  reconfigure(config: Readonly<Config>): void;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly db: Database;
  readonly store: Store;
  readonly fileStores: FileStoreProvider;
  /** The bank client, created on first use and shared by every job of this process. */
  bank(): BankClient;
  /** Adds a listener to the bank client's errors and token fetches (metrics). */
  observeBank(observer: BankObserver): void;
  pickupDeps(runId: string): PickupDeps;
  reconcileDeps(runId: string): ReconcileDeps;
  close(): Promise<void>;
}

export async function createApp(config: Readonly<Config>, logger: Logger, clock: Clock = systemClock): Promise<App> {
  const db = await openConfiguredDatabase(config, logger);
  try {
    await db.migrate();
  } catch (error) {
    // Refused (a schema newer than this build, ERR_DB_MIGRATION_UNKNOWN) or failed: the open pool
    // would keep the process alive after the message, so `serve` and `run` would never exit.
    await db.close().catch(() => undefined);
    throw error;
  }
  return assembleApp(config, logger, clock, { db, fileStores: new CompanyFileStores(config, logger) });
}

/** Parts an App may be given instead of building them (the dry run hands in recording ones). */
export interface AppParts {
  db: Database;
  fileStores: FileStoreProvider;
  bank?: BankClient;
}

/** Builds an App around an open database; closing the App closes the parts it was given. */
export function assembleApp(config: Readonly<Config>, logger: Logger, clock: Clock, parts: AppParts): App {
  const { db, fileStores } = parts;
  // What a reload may change (companies, people, transports) is read from `current` at use;
  // the rest of `config` is what the process started with (reload.ts keeps it so).
  let current = config;
  const store = createStore(db, clock);
  // Each new audit head goes to the log too, outside the database (docs/security.md).
  store.audit.onAppend((head) => logger.info('audit head', { seq: head.seq, head: head.hash }));
  const profile = profileLoader();
  const receivablesProfile = receivablesProfileLoader();
  const { lookBack, amountToleranceMinor, ...rules } = config.reconcile;
  const reconcileConfig = resolveReconcileConfig({ ...rules, amountToleranceMinor: BigInt(amountToleranceMinor) });
  let bank: BankClient | undefined = parts.bank;
  const observers: BankObserver[] = [];
  const observer: BankObserver = {
    error: (code) => observers.forEach((o) => o.error?.(code)),
    tokenFetched: () => observers.forEach((o) => o.tokenFetched?.()),
  };
  const bankClient = () => (bank ??= createBankClient(config, logger, { clock, observer }));
  return {
    get config() {
      return current;
    },
    reconfigure(next) {
      current = next;
      fileStores.reconfigure?.(next);
    },
    logger,
    clock,
    db,
    store,
    fileStores,
    bank: bankClient,
    observeBank: (o) => void observers.push(o),
    pickupDeps: (runId) => ({
      debtorAccounts: debtorAccountsOncePerRun({
        store,
        bank: bankClient(),
        clock,
        logger: runLogger(logger, 'pickup', runId),
      }),
      ledger: store.files,
      reports: store.reports,
      clock,
      logger: runLogger(logger, 'pickup', runId),
      timeZone: config.timeZone,
      locale: config.locale,
      workDir: join(config.dataDir, 'work', 'pickup'),
      fileStore: (company) => fileStores.fileStore(company),
      profile,
      firstSighting: (key) => store.dedupe.recordAlertSent(key, 'log'),
      controls: (company) =>
        loadAuditedControls(company, { clock, timeZone: config.timeZone, audit: store.audit, origin: 'pickup' }),
      cancellationRequest: (company, file) =>
        answerCamt055(
          {
            store,
            bank: bankClient(),
            logger: runLogger(logger, 'pickup', runId),
            clock,
            companies: current.companies,
          },
          company,
          file,
        ),
    }),
    reconcileDeps: (runId) => ({
      store,
      clock,
      logger: runLogger(logger, 'reconcile', runId),
      timeZone: config.timeZone,
      locale: config.locale,
      runId,
      config: reconcileConfig,
      lookBackDays: Math.round(lookBack / 86_400_000),
      fileStore: (company) => fileStores.fileStore(company),
      consents: (company) => consentStates(store, company),
      receivablesProfile,
    }),
    async close() {
      await bank?.close();
      await fileStores.close();
      await db.close();
    },
  };
}

/** The pickup's check of debtor accounts: the company's accounts at its banks, read once per run. */
function debtorAccountsOncePerRun(deps: DirectoryDeps): NonNullable<PickupDeps['debtorAccounts']> {
  const read = directoryOncePerRun(deps);
  return async (company) => {
    // A company that names no bank has no account list to check against (docs/banks.md).
    if (companyBanks(company).length === 0) return undefined;
    const directory = await read(company);
    return isUnreachable(directory) ? directory : debtorAccountCheck(company, directory);
  };
}

export function newRunId(): string {
  return randomUUID();
}

/** The company's consents with their expiry as last read from the bank, for the reconciliation report. */
async function consentStates(store: Store, company: CompanyConfig): Promise<ConsentState[]> {
  return (await store.consents.list(company.id)).flatMap((c) =>
    c.expiresAt === undefined || !['Authorized', 'Valid'].includes(c.status)
      ? []
      : [
          {
            company: company.id,
            consentId: c.consentId,
            bank: c.bankId,
            validUntil: c.expiresAt.toISOString().slice(0, 10) as ConsentState['validUntil'],
          },
        ],
  );
}
