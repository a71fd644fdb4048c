// The composition root: builds the adapters the jobs need from the configuration, once, and
// closes them at the end. Jobs receive plain dependencies and never read the configuration file.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PickupDeps } from '../../jobs/pickup.js';
import type { Config } from '../config/index.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { runLogger, type Logger } from '../log/index.js';
import type { Database } from '../store/database.js';
import { FileLedger } from '../store/file-ledger.js';
import { openConfiguredDatabase } from './database.js';
import { profileLoader } from './profiles.js';
import { CompanyStores } from './stores.js';

export interface App {
  readonly config: Readonly<Config>;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly db: Database;
  readonly stores: CompanyStores;
  pickupDeps(runId: string): PickupDeps;
  close(): Promise<void>;
}

export async function createApp(config: Readonly<Config>, logger: Logger, clock: Clock = systemClock): Promise<App> {
  const db = await openConfiguredDatabase(config, logger);
  await db.migrate();
  const stores = new CompanyStores(config, logger);
  const profile = profileLoader();
  return {
    config,
    logger,
    clock,
    db,
    stores,
    pickupDeps: (runId) => ({
      ledger: new FileLedger(db, clock),
      clock,
      logger: runLogger(logger, 'pickup', runId),
      timeZone: config.timeZone,
      workDir: join(config.dataDir, 'work', 'pickup'),
      store: (company) => stores.store(company),
      profile,
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
