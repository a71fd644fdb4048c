// The repository contract on SQLite: a fresh file in a temp dir.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repositoryContract } from './repository-contract.js';

repositoryContract('SQLite (temp file)', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'settle-store-'));
  return {
    url: `sqlite:${path.join(dir, 'test.sqlite')}`,
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
});
