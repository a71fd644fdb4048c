// One company whose folders are on the test sshd, reached through the configuration path an
// operator uses (a transport with a pinned host key, key login), for the suites that run pickup
// over SFTP, and the pickup job's dependencies for it. Each call gets its own sub-folder of the
// server's files, so suites do not meet.
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { PickupDeps } from '../../jobs/pickup/pickup.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { createLogger, Secret, silentLogger } from '../../src/log/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { CompanyFileStores } from '../../src/main/file-stores.js';
import { profileLoader } from '../../src/main/profiles.js';
import type { Database } from '../../src/store/database.js';
import { FileLedger } from '../../src/store/file-ledger.js';
import type { FileStore } from '../../src/transport/index.js';
import type { SshdServer } from './sshd.js';

export interface SftpCompany {
  company: CompanyConfig;
  stores: CompanyFileStores;
  /** The company's sub-folder of `server.filesRoot` (inbox, archive and error are below it). */
  sub: string;
}

/** What the company needs of a server: the test sshd, or another SFTP server made for a test. */
export type SftpServerAddress = Pick<
  SshdServer,
  'host' | 'port' | 'username' | 'hostKeySha256' | 'filesRoot' | 'privateKey'
>;

export function sftpCompany(server: SftpServerAddress, prefix: string, intake: object = {}): SftpCompany {
  const sub = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const folders = { inbox: `${sub}/inbox`, archive: `${sub}/archive`, error: `${sub}/error` };
  const parsed = configSchema.parse({
    transports: {
      erp: {
        type: 'sftp',
        host: server.host,
        port: server.port,
        username: server.username,
        privateKey: { env: 'UNUSED' },
        hostKeySha256: server.hostKeySha256,
      },
    },
    companies: [
      {
        id: 'acme',
        name: 'ACME AS',
        organisationNumber: '999999999',
        transport: 'erp',
        root: server.filesRoot,
        folders,
        intake,
      },
    ],
  });
  const erp = parsed.transports.erp!;
  const stores = new CompanyFileStores(
    {
      transports: {
        erp: { ...erp, password: undefined, passphrase: undefined, privateKey: new Secret(server.privateKey) },
      },
    },
    createLogger({ format: 'json', level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) }),
  );
  return { company: parsed.companies[0]!, stores, sub };
}

/**
 * The pickup job's dependencies for a company on an SFTP server: a ledger on `db` (migrated here),
 * the clock at Monday 2026-01-05 09:00 UTC, the shipped CSV profiles, scratch under `dir`, and no
 * wait in the stable-file check (the tests make their files still themselves).
 */
export async function sftpPickupDeps(
  db: Database,
  dir: string,
  fileStore: FileStore | PickupDeps['fileStore'],
): Promise<PickupDeps> {
  await db.migrate();
  const clock = new ManualClock('2026-01-05T09:00:00Z');
  return {
    ledger: new FileLedger(db, clock),
    clock,
    logger: silentLogger(),
    timeZone: 'Europe/Oslo',
    workDir: join(dir, 'work'),
    fileStore: typeof fileStore === 'function' ? fileStore : () => Promise.resolve(fileStore),
    profile: profileLoader(),
    sleep: () => Promise.resolve(),
  };
}
