// `settle db compact` is for SQLite files: on MariaDB it refuses with a usage error and sends nothing
// to the server (a VACUUM or a PRAGMA there would be a syntax error quoting SQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSettleError } from '../../src/domain/errors.js';
import { compactSqlite, openDatabase, type Database } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';

const available = await mariaDbForTests();

describe.skipIf(!available)('compacting a MariaDB database', () => {
  let target: ThrowawayDatabase;
  let db: Database;
  beforeAll(async () => {
    target = await createThrowawayDatabase();
    db = await openDatabase({ url: target.url });
  });
  afterAll(async () => {
    await db.close();
    await target.drop();
  });

  it('is refused with ERR_USAGE, naming what MariaDB has instead, and runs no statement', async () => {
    const sent: string[] = [];
    db.knex.on('query', (q: { sql: string }) => sent.push(q.sql));
    const error: unknown = await compactSqlite(db).catch((e: unknown) => e);
    expect(isSettleError(error, 'ERR_USAGE')).toBe(true);
    expect((error as Error).message).toContain('OPTIMIZE TABLE');
    expect(sent).toEqual([]);
  });
});
