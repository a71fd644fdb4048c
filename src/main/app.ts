// The composition root: builds the adapters the jobs need from the configuration, once, and
// closes them at the end. Jobs receive plain dependencies and never read the configuration file.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PickupDeps } from '../../jobs/pickup.js';
import type { ReconcileDeps } from '../../jobs/reconcile.js';
import type { Config } from '../config/index.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { runLogger, type Logger } from '../log/index.js';
import { resolveReconcileConfig } from '../domain/reconcile/index.js';
import { createStore, type Database, type Store } from '../store/index.js';
import { openConfiguredDatabase } from './database.js';
import { profileLoader } from './profiles.js';
import { CompanyStores } from './stores.js';

export interface App {
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly db: Database;
  readonly store: Store;
  readonly stores: CompanyStores;
  pickupDeps(runId: string): PickupDeps;
  reconcileDeps(runId: string): ReconcileDeps;
  close(): Promise<void>;
}

export async function createApp(config: Readonly<Config>, logger: Logger, clock: Clock = systemClock): Promise<App> {
  const db = await openConfiguredDatabase(config, logger);
  await db.migrate();
  const store = createStore(db, clock);
  const stores = new CompanyStores(config, logger);
  const profile = profileLoader();
  const { lookBack, amountToleranceMinor, ...rules } = config.reconcile;
  const reconcileConfig = resolveReconcileConfig({ ...rules, amountToleranceMinor: BigInt(amountToleranceMinor) });
  return {
    config,
    logger,
    clock,
    db,
    store,
    stores,
    pickupDeps: (runId) => ({
      ledger: store.files,
      clock,
      logger: runLogger(logger, 'pickup', runId),
      timeZone: config.timeZone,
      workDir: join(config.dataDir, 'work', 'pickup'),
      store: (company) => stores.store(company),
      profile,
    }),
    reconcileDeps: (runId) => ({
      store,
      clock,
      logger: runLogger(logger, 'reconcile', runId),
      timeZone: config.timeZone,
      runId,
      config: reconcileConfig,
      lookBackDays: Math.round(lookBack / 86_400_000),
      files: (company) => stores.store(company),
    }),
    async close() {
      await stores.close();
      await db.close();
    },
  };
}

export function newRunId(): string {
  return randomUUID();
}
