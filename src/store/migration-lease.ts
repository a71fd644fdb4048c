// One migrator at a time across instances, under a lease that dies with its holder. knex's own
// lock (settle_migrations_lock) is a flag: a migrator killed while holding it leaves it set and
// every later start waits on it and fails. The lease here has an expiry, renewed while the
// holder migrates; whoever holds it may clear knex's flag, because no one else can be migrating.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isUniqueViolation } from './rows.js';

export const MIGRATION_LEASE_TABLE = 'settle_migration_lease';
const LEASE_MS = 30_000;
const WAIT_STEP_MS = 250;

async function ensureTable(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable(MIGRATION_LEASE_TABLE)) return;
  try {
    await knex.schema.createTable(MIGRATION_LEASE_TABLE, (t) => {
      t.integer('id').primary();
      t.string('holder', 200).notNullable();
      t.string('expires_at', 30).notNullable();
    });
  } catch (error) {
    // Another instance created it at the same moment.
    if (!(await knex.schema.hasTable(MIGRATION_LEASE_TABLE))) throw error;
  }
}

async function tryAcquire(knex: Knex, holder: string): Promise<boolean> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + LEASE_MS).toISOString();
  const taken = await knex(MIGRATION_LEASE_TABLE)
    .where({ id: 1 })
    .andWhere('expires_at', '<=', now.toISOString())
    .update({ holder, expires_at: expiresAt });
  if (taken > 0) return true;
  try {
    await knex(MIGRATION_LEASE_TABLE).insert({ id: 1, holder, expires_at: expiresAt });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Runs `fn` holding the migration lease; waits (up to `waitMs`) while another instance has claimed the migration. */
export async function withMigrationLease<T>(
  knex: Knex,
  knexLockTable: string,
  fn: () => Promise<T>,
  waitMs = 2 * LEASE_MS,
): Promise<T> {
  await ensureTable(knex);
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const deadline = Date.now() + waitMs;
  while (!(await tryAcquire(knex, holder))) {
    if (Date.now() > deadline) throw new Error('another settle instance has been migrating the database for too long');
    await sleep(WAIT_STEP_MS);
  }
  const renew = () =>
    knex(MIGRATION_LEASE_TABLE)
      .where({ id: 1, holder })
      .update({ expires_at: new Date(Date.now() + LEASE_MS).toISOString() });
  const heartbeat = setInterval(() => void renew().catch(() => undefined), LEASE_MS / 3);
  heartbeat.unref();
  try {
    // Whatever knex's flag says, nobody else is migrating now: a flag left by a killed migrator goes.
    await knex.migrate.forceFreeMigrationsLock({ tableName: knexLockTable });
    return await fn();
  } finally {
    clearInterval(heartbeat);
    await knex(MIGRATION_LEASE_TABLE).where({ id: 1, holder }).delete();
  }
}
