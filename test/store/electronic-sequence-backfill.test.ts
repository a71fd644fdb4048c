// Migration 0490: periods exported before it keep the ElctrncSeqNb a re-export gave them until
// then (their rank by first day per account and format); payment status files get none.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MIGRATIONS, openDatabase } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { withTempDir } from '../support/tmp.js';

it('numbers the periods exported before migration 0490 by their first day', async () => {
  await withTempDir(async (dir) => {
    const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
    const at = MIGRATIONS.findIndex((m) => m.name === '0490_electronic_sequence_numbers');
    await runMigrations(db.knex, db.description, MIGRATIONS.slice(0, at));
    const row = (format: string, subject: string, period: string, version = 1) => ({
      id: `${format}-${subject}-${period}-${version}`,
      company: 'acme',
      format,
      subject_id: subject,
      period,
      version,
      file_name: period,
      entry_count: 1,
      exported_at: '2026-01-01T00:00:00.000Z',
    });
    await db
      .knex('exports')
      .insert([
        row('camt.053.001.02', 'acc', '2026-01-03'),
        row('camt.053.001.02', 'acc', '2026-01-01'),
        row('camt.053.001.02', 'acc', '2026-01-01', 2),
        row('camt.053.001.02', 'acc', '2026-01-02..2026-01-02'),
        row('camt.054.001.02-debit', 'acc', '2026-01-02'),
        row('csv-statement', 'acc', '2026-01-02'),
        row('pain.002.001.03', 'file-1', 'status'),
      ]);
    await db.migrate();
    const numbers = await db
      .knex('electronic_sequence_numbers')
      .select('account_id', 'format', 'period', 'number')
      .orderBy(['format', 'number']);
    expect(numbers.map((n: Record<string, unknown>) => [n.format, n.period, Number(n.number)])).toEqual([
      ['camt.053.001.02', '2026-01-01', 1],
      ['camt.053.001.02', '2026-01-02..2026-01-02', 2],
      ['camt.053.001.02', '2026-01-03', 3],
      ['camt.054.001.02-debit', '2026-01-02', 1],
      ['csv-statement', '2026-01-02', 1],
    ]);
    await db.close();
  });
});
