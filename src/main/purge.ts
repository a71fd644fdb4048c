// The purge job from the App: one unit (purge, company) per company and one (purge, _shared)
// for what no company owns, so several instances share a bureau's purge like its night and
// never purge one company twice at once.
import { runPurgeCompany, runPurgeShared, type CompanyPurge, type PurgeDeps } from '../../jobs/purge/index.js';
import type { CompanyConfig } from '../config/index.js';
import { runLogger } from '../log/index.js';
import { RetentionRepository, type PurgeCounts, type UnitClaims } from '../store/index.js';
import type { App } from './app.js';
import { checkSchemaKnown, forEachCompany } from './work-units.js';

/** The unit of the shared records: no company id can be `_shared` (ids start with a letter or digit). */
export const SHARED_UNIT = '_shared';

export interface PurgeResult {
  companies: CompanyPurge[];
  /** Undefined when another process had claimed the shared unit. */
  shared?: PurgeCounts;
}

export function purgeDeps(app: App, runId: string): PurgeDeps {
  return {
    retention: new RetentionRepository(app.db, { batchSize: app.config.retention.batchSize }),
    clock: app.clock,
    logger: runLogger(app.logger, 'purge', runId),
    timeZone: app.config.timeZone,
    fileStore: (company) => app.fileStores.fileStore(company),
  };
}

export async function runPurge(
  app: App,
  units: UnitClaims,
  runId: string,
  companies: readonly CompanyConfig[],
): Promise<PurgeResult> {
  await checkSchemaKnown(app.db);
  const deps = purgeDeps(app, runId);
  const done = await forEachCompany(units, 'purge', companies, async (c) => [await runPurgeCompany(deps, c)]);
  const shared = await units.run({ job: 'purge', company: SHARED_UNIT }, () =>
    runPurgeShared(deps, app.config.retention.operational),
  );
  return { companies: done, ...(shared.ran ? { shared: shared.result } : {}) };
}
