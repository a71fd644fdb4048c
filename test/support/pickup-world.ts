// One company "acme" with an inbox under `dir`, a migrated SQLite database and the pickup job's
// dependencies on real parts (local folders, the shipped CSV profiles): what the pickup tests
// and the intake benchmark's pickup case start from.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PickupDeps } from '../../jobs/pickup/pickup.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { loadProfile } from '../../src/formats/csv-profile/index.js';
import { silentLogger } from '../../src/log/index.js';
import { packageInfo } from '../../src/main/package-info.js';
import { FileLedger, openDatabase, ReportRepository, type Database } from '../../src/store/index.js';
import { LocalFileStore } from '../../src/transport/index.js';

export interface PickupWorld {
  db: Database;
  deps: PickupDeps;
  company: CompanyConfig;
}

export async function openPickupWorld(dir: string, clock: Clock): Promise<PickupWorld> {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  await db.migrate();
  const root = join(dir, 'acme');
  await mkdir(join(root, 'inbox'), { recursive: true });
  const company = configSchema.parse({
    companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root, intake: { stableFor: '1s' } }],
  }).companies[0]!;
  // The package's own, found as the installed settle finds them: also right when compiled.
  const profiles = join(packageInfo().root, 'config', 'profiles');
  const deps: PickupDeps = {
    ledger: new FileLedger(db, clock),
    reports: new ReportRepository(db, clock),
    clock,
    logger: silentLogger(),
    timeZone: 'Europe/Oslo',
    workDir: join(dir, 'work'),
    fileStore: () => Promise.resolve(new LocalFileStore(root)),
    profile: (name) => loadProfile(name, [profiles]),
    sleep: () => Promise.resolve(),
  };
  return { db, deps, company };
}
