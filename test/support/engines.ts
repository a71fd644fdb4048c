// Runs a store suite on both engines: SQLite in a temporary file, and MariaDB in a throwaway
// database when the server is reachable (test/support/mariadb.ts decides, and in CI insists).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests } from './mariadb.js';

export interface EngineTarget {
  url: string;
  cleanup(): Promise<void>;
}

export type EngineSuite = (name: 'SQLite' | 'MariaDB', open: () => Promise<EngineTarget>) => void;

export async function onBothEngines(suite: EngineSuite): Promise<void> {
  suite('SQLite', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'settle-store-'));
    return {
      url: `sqlite:${path.join(dir, 'test.sqlite')}`,
      cleanup: () => fs.rm(dir, { recursive: true, force: true }),
    };
  });
  if (await mariaDbForTests())
    suite('MariaDB', async () => {
      const db = await createThrowawayDatabase();
      return { url: db.url, cleanup: () => db.drop() };
    });
}

/** A migrated database of `open`'s engine for `fn`, closed and dropped after it. */
export async function withMigrated(
  open: () => Promise<EngineTarget>,
  fn: (db: Database) => Promise<void>,
): Promise<void> {
  const target = await open();
  const db = await openDatabase({ url: target.url });
  try {
    await db.migrate();
    await fn(db);
  } finally {
    await db.close();
    await target.cleanup();
  }
}
