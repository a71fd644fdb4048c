// The repository contract on MariaDB: a throwaway database created on the local server and
// dropped afterwards. Skipped (loudly) when the server is absent, except in CI.
import { describe, it } from 'vitest';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { repositoryContract } from './repository-contract.js';

if (await mariaDbForTests()) {
  repositoryContract('MariaDB (throwaway database)', async () => {
    const db = await createThrowawayDatabase();
    return { url: db.url, cleanup: () => db.drop() };
  });
} else {
  describe.skip('repositories on MariaDB (server not reachable)', () => {
    it('runs the repository contract', () => undefined);
  });
}
