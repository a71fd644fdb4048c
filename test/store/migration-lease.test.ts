// Upgrades with several instances: one migrates at a time under a lease that dies with its
// holder (a flag left by a killed migrator does not block the next one), and an instance that
// finds the schema migrated by a newer settle refuses to work on it, with a code.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSchemaKnown } from '../../src/main/work-units.js';
import { MIGRATIONS, openDatabase, type Migration } from '../../src/store/index.js';
import { MIGRATION_LEASE_TABLE } from '../../src/store/migration-lease.js';
import { runMigrations } from '../../src/store/migrator.js';
import { withTempDir } from '../support/tmp.js';

const later: Migration = {
  name: '9999_later_release',
  up: (knex) => knex.schema.createTable('later_release', (t) => void t.string('id').primary()),
};

describe('migrations with several instances', () => {
  it('are not blocked by the lock flag of a migrator that was killed, nor by its lapsed lease', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      // What a migrator SIGKILLed mid-way leaves: knex's flag set, its lease row lapsed.
      await db.knex('settle_migrations_lock').update({ is_locked: 1 });
      await db.knex(MIGRATION_LEASE_TABLE).insert({ id: 1, holder: 'dead', expires_at: '2000-01-01T00:00:00.000Z' });
      const result = await runMigrations(db.knex, db.description, [...MIGRATIONS, later]);
      expect(result.applied).toEqual(['9999_later_release']);
      expect(await db.knex(MIGRATION_LEASE_TABLE)).toEqual([]);
      await db.close();
    });
  });

  it('run one at a time: a second migrator waits for the holder and then finds nothing to apply', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.sqlite');
      const [a, b] = await Promise.all([
        openDatabase({ url: `sqlite:${file}` }),
        openDatabase({ url: `sqlite:${file}` }),
      ]);
      const results = await Promise.all([a.migrate(), b.migrate()]);
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, MIGRATIONS.length]);
      await Promise.all([a.close(), b.close()]);
    });
  });

  it('an instance refuses to work on a schema a newer settle migrated, with ERR_DB_SCHEMA_NEWER', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      await expect(checkSchemaKnown(db)).resolves.toBeUndefined();
      // A newer settle migrates the same database while this one runs.
      await runMigrations(db.knex, db.description, [...MIGRATIONS, later]);
      await expect(checkSchemaKnown(db)).rejects.toMatchObject({
        code: 'ERR_DB_SCHEMA_NEWER',
        exitCode: 3,
        message: expect.stringContaining('9999_later_release') as string,
      });
      await db.close();
    });
  });
});
