// `settle run nightly --dry-run`: the real chain — real configuration, database, folders and
// bank reads — inside one database transaction that is rolled back at the end, with the bank's
// writes and every file change recorded instead of done (./dry-run-parts.ts). What it prints is
// what a real run would do now. While it runs it holds the database's write locks, so run it
// when the service is idle.
import type { CompanyConfig, Config } from '../config/index.js';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { Logger } from '../log/index.js';
import { rollbackOnly } from '../store/index.js';
import { assembleApp, newRunId } from './app.js';
import { createBankClient } from './bank.js';
import { openConfiguredDatabase } from './database.js';
import { recordingBank, recordingFileStores, type DryRunAction } from './dry-run-parts.js';
import { runNightly, type NightlyOptions, type NightlyResult } from '../../jobs/nightly/index.js';
import { nightlyDeps } from './nightly-deps.js';
import { CompanyFileStores } from './file-stores.js';

export interface DryRunResult {
  nightly: NightlyResult;
  actions: DryRunAction[];
}

export async function runNightlyDryRun(
  config: Readonly<Config>,
  logger: Logger,
  clock: Clock,
  companies: readonly CompanyConfig[],
  options: Pick<NightlyOptions, 'onStep'> = {},
): Promise<DryRunResult> {
  const db = await openConfiguredDatabase(config, logger);
  try {
    const schema = await db.migrationStatus();
    if (schema.pending.length || schema.unknown.length) {
      throw new SettleError(
        'ERR_DRY_RUN_SCHEMA',
        "the database schema is not this version's: run `settle db migrate` first (a dry run changes nothing, not even the schema)",
      );
    }
    const { db: dry, rollback } = await rollbackOnly(db, schema);
    const actions: DryRunAction[] = [];
    const fileStores = new CompanyFileStores(config, logger);
    const bank = createBankClient(config, logger, { clock });
    // No e-mail leaves a dry run: approvers would get a link that does not exist.
    const quiet: Readonly<Config> = { ...config, alerts: { ...config.alerts, email: undefined, webhook: undefined } };
    const app = assembleApp(quiet, logger.child({ dryRun: true }), clock, {
      db: dry,
      fileStores: recordingFileStores(fileStores, actions),
      bank: recordingBank(bank, actions),
    });
    try {
      // One company at a time: every step runs in the one transaction on one connection, whose
      // savepoints would interleave if several companies' chains ran at once.
      const deps = { ...nightlyDeps(app), companiesAtOnce: 1 };
      const nightly = await runNightly(deps, companies, { runId: `dry-run-${newRunId()}`, ...options });
      return { nightly, actions };
    } finally {
      await rollback();
      await Promise.allSettled([fileStores.close(), bank.close()]);
    }
  } finally {
    await db.close();
  }
}
