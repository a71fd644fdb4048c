// Migration 0520: the periods exported and numbered before it get their last day, so the
// export's reads from a day on find them; payment status files' keys get none. Both engines.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase, type Database } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

const maria = await mariaDbForTests();

async function backfilled(db: Database): Promise<{ exports: unknown[]; numbers: unknown[] }> {
  const at = MIGRATIONS.findIndex((m) => m.name === '0520_export_floors');
  await runMigrations(db.knex, db.description, MIGRATIONS.slice(0, at));
  const periods: [string, string][] = [
    ['camt.053.001.02', '2026-01-03'],
    ['camt.053.001.02', '2026-01-04..2026-01-09'],
    ['pain.002.001.03', 'status'],
  ];
  await db.knex('exports').insert(
    periods.map(([format, period], i) => ({
      id: `e${i}`,
      company: 'acme',
      format,
      subject_id: 'acc',
      period,
      version: 1,
      file_name: period,
      entry_count: 1,
      exported_at: '2026-01-10T00:00:00.000Z',
    })),
  );
  await db.knex('electronic_sequence_numbers').insert({
    account_id: 'acc',
    format: 'csv-statement',
    period: '2026-02-01..2026-02-03',
    number: 1,
    assigned_at: '2026-02-04T00:00:00.000Z',
  });
  await db.migrate();
  return {
    exports: (await db.knex('exports').select('period', 'last_day').orderBy('period')).map(
      (r: Record<string, unknown>) => [r.period, r.last_day],
    ),
    numbers: (await db.knex('electronic_sequence_numbers').select('period', 'last_day')).map(
      (r: Record<string, unknown>) => [r.period, r.last_day],
    ),
  };
}

const expected = {
  exports: [
    ['2026-01-03', '2026-01-03'],
    ['2026-01-04..2026-01-09', '2026-01-09'],
    ['status', null],
  ],
  numbers: [['2026-02-01..2026-02-03', '2026-02-03']],
};

describe('migration 0520 gives the periods stored before it their last day', () => {
  it('on SQLite', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      try {
        expect(await backfilled(db)).toEqual(expected);
      } finally {
        await db.close();
      }
    });
  });

  it.runIf(maria)('on MariaDB', async () => {
    const target = await createThrowawayDatabase();
    const db = await openDatabase({ url: target.url });
    try {
      expect(await backfilled(db)).toEqual(expected);
    } finally {
      await db.close();
      await target.drop();
    }
  });
});
