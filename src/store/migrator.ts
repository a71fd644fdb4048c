// Forward-only migrations through knex's migrator, fed from the list in ./migrations (a
// custom migration source, so no folder scan and no file extensions to match). One instance
// migrates at a time, under a lease (./migration-lease.ts); the others wait and then find
// nothing left to apply.
import type { Knex } from 'knex';
import { SettleError } from '../domain/errors.js';
import { redactText } from '../log/redact.js';
import { withMigrationLease } from './migration-lease.js';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export const MIGRATIONS_TABLE = 'settle_migrations';

export interface MigrateResult {
  /** Names applied by this call, in order; empty when the schema was already current. */
  applied: string[];
  /** Names that were already applied before this call. */
  alreadyApplied: string[];
}

class ListMigrationSource implements Knex.MigrationSource<Migration> {
  constructor(private readonly list: readonly Migration[]) {}
  getMigrations(): Promise<Migration[]> {
    return Promise.resolve([...this.list]);
  }
  getMigrationName(migration: Migration): string {
    return migration.name;
  }
  getMigration(migration: Migration): Promise<Knex.Migration> {
    return Promise.resolve({
      up: (knex: Knex) => migration.up(knex),
      down: () => Promise.reject(new Error(`migrations are forward-only; ${migration.name} has no down step`)),
    });
  }
}

export async function appliedMigrations(knex: Knex): Promise<string[]> {
  if (!(await knex.schema.hasTable(MIGRATIONS_TABLE))) return [];
  const rows = await knex<{ name: string }>(MIGRATIONS_TABLE).select('name').orderBy('id');
  return rows.map((r) => r.name);
}

export interface MigrationStatus {
  applied: string[];
  /** Known to this build, not yet applied: run `settle db migrate`. */
  pending: string[];
  /** Applied by a newer build; this build must not run on the database. */
  unknown: string[];
}

export async function migrationStatus(knex: Knex, list: readonly Migration[] = MIGRATIONS): Promise<MigrationStatus> {
  const applied = await appliedMigrations(knex);
  const done = new Set(applied);
  const known = new Set(list.map((m) => m.name));
  return {
    applied,
    pending: list.map((m) => m.name).filter((n) => !done.has(n)),
    unknown: applied.filter((n) => !known.has(n)),
  };
}

export async function runMigrations(
  knex: Knex,
  description: string,
  list: readonly Migration[] = MIGRATIONS,
): Promise<MigrateResult> {
  const before = await appliedMigrations(knex);
  const known = new Set(list.map((m) => m.name));
  const unknown = before.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new SettleError(
      'ERR_DB_MIGRATION_UNKNOWN',
      `The database (${description}) has migrations this settle build does not know (${unknown.join(', ')}); a newer settle has used it. Run that version, or restore a backup taken before the upgrade.`,
      { details: { unknown } },
    );
  }
  try {
    return await withMigrationLease(knex, MIGRATIONS_TABLE, async () => {
      const [, log] = (await knex.migrate.latest({
        migrationSource: new ListMigrationSource(list),
        tableName: MIGRATIONS_TABLE,
        // We checked the list above with a clearer message than knex's.
        disableMigrationsListValidation: true,
      })) as [number, string[]];
      const now = await appliedMigrations(knex);
      return { applied: log, alreadyApplied: now.filter((name) => !log.includes(name)) };
    });
  } catch (cause) {
    const reason = cause instanceof Error ? redactText(cause.message) : 'unknown error';
    throw new SettleError('ERR_DB_MIGRATION_FAILED', `Migrating the database (${description}) failed: ${reason}`, {
      cause,
    });
  }
}
