// Migration 0530: the payment files stored before it learn when their lines last changed (the
// latest `updated_at` of their lines), so the status report's window finds them; a file without
// lines gets none. Both engines.
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openDatabase, type Database } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { onBothEngines } from '../support/engines.js';

async function backfilled(db: Database): Promise<unknown[]> {
  const at = MIGRATIONS.findIndex((m) => m.name === '0530_history_bounded_reads');
  await runMigrations(db.knex, db.description, MIGRATIONS.slice(0, at));
  const file = (id: string) => ({
    id,
    company: 'acme',
    file_name: `${id}.csv`,
    sha256: id.padEnd(64, '0'),
    format: 'csv:generic',
    size_bytes: 1,
    state: 'submitted',
    received_at: '2026-01-01T00:00:00.000Z',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });
  await db.knex('payment_files').insert([file('f1'), file('f2')]);
  const line = (id: string, n: number, updatedAt: string) => ({
    id,
    file_id: 'f1',
    line_number: n,
    company: 'acme',
    end_to_end_id: id,
    debtor_iban: 'NO9386011117947',
    debtor_name: 'Acme AS',
    execution_date: '2026-01-02',
    amount_minor: 100,
    currency: 'NOK',
    creditor_iban: 'NO0612000000009',
    creditor_name: 'Creditor AS',
    state: 'ACSC',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: updatedAt,
  });
  await db
    .knex('payments')
    .insert([
      line('p1', 1, '2026-01-03T09:00:00.000Z'),
      line('p2', 2, '2026-01-07T10:00:00.000Z'),
      line('p3', 3, '2026-01-05T11:00:00.000Z'),
    ]);
  await db.migrate();
  return (await db.knex('payment_files').select('id', 'lines_changed_at').orderBy('id')).map(
    (r: Record<string, unknown>) => [r.id, r.lines_changed_at],
  );
}

const expected = [
  ['f1', '2026-01-07T10:00:00.000Z'],
  ['f2', null],
];

await onBothEngines((engine, open) => {
  describe(`migration 0530 tells the files stored before it when their lines last changed (${engine})`, () => {
    it('the latest change of their lines, none for a file without lines', async () => {
      const target = await open();
      const db = await openDatabase({ url: target.url });
      try {
        expect(await backfilled(db)).toEqual(expected);
      } finally {
        await db.close();
        await target.cleanup();
      }
    });
  });
});
