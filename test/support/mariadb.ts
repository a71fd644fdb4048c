// A throwaway database on the local MariaDB server (127.0.0.1:3306, root, empty password) for
// the repository contract suite: each suite creates settle_test_<random> and drops it after.
// In CI (env CI set) an unreachable server is a failure; elsewhere the suite is skipped with
// a loud warning, so a laptop without MariaDB can still run the SQLite half.
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';

const HOST = process.env.SETTLE_TEST_MARIADB_HOST ?? '127.0.0.1';
const PORT = Number.parseInt(process.env.SETTLE_TEST_MARIADB_PORT ?? '3306', 10);
const USER = process.env.SETTLE_TEST_MARIADB_USER ?? 'root';
const PASSWORD = process.env.SETTLE_TEST_MARIADB_PASSWORD ?? '';

export interface ThrowawayDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

function adminConnection(): Promise<mysql.Connection> {
  return mysql.createConnection({ host: HOST, port: PORT, user: USER, password: PASSWORD, connectTimeout: 3000 });
}

/** Why MariaDB cannot be used, or undefined when it can. */
export async function mariaDbUnavailableReason(): Promise<string | undefined> {
  try {
    const conn = await adminConnection();
    await conn.end();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Decides whether the MariaDB suites run. Returns true when the server is reachable; throws
 * in CI when it is not; otherwise warns loudly and returns false.
 */
export async function mariaDbForTests(): Promise<boolean> {
  const reason = await mariaDbUnavailableReason();
  if (reason === undefined) return true;
  const message = `MariaDB at ${HOST}:${PORT} is not reachable (${reason})`;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0')
    throw new Error(`${message}; in CI the MariaDB suites must run.`);
  console.warn(
    `\n${'!'.repeat(78)}\n!! SKIPPING the MariaDB repository suite: ${message}.\n!! Start MariaDB (root, empty password) to run it.\n${'!'.repeat(78)}\n`,
  );
  return false;
}

export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `settle_test_${randomBytes(6).toString('hex')}`;
  const conn = await adminConnection();
  try {
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await conn.end();
  }
  const auth = PASSWORD === '' ? USER : `${USER}:${encodeURIComponent(PASSWORD)}`;
  return {
    name,
    url: `mysql://${auth}@${HOST}:${PORT}/${name}`,
    async drop() {
      const c = await adminConnection();
      try {
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await c.end();
      }
    },
  };
}
