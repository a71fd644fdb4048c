// The creditor-name search on both engines (src/domain/search-fold.ts, migration 0761): a prefix
// of the folded name, whatever the case and the Unicode form it is typed in, with æ, ø and å as
// letters of their own, read by a range of the folded name's index. And the migration folds the
// payments stored before it, as they were written then (MariaDB: into a utf8mb4_bin column).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, MIGRATIONS, openDatabase, type Database, type Row, type Store } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { onBothEngines, withMigrated } from '../support/engines.js';
import { captureQueries, isSqlite } from '../support/query-plan.js';
import { payment, paymentFile } from './fixtures.js';

const NAMES: Record<string, string> = {
  ORNULF: 'Ørnulf Hansen AS',
  ORNES: 'Ornes Marina',
  ASEN: 'Åsen Bygg',
  AASEN: 'Aasen Transport',
  AEROE: 'Ærø Fisk',
  NORDIC: 'Nordic  Supplies\u00a0AS',
  ECLAIR: 'Éclair Café',
  // The same name in decomposed form (A + combining ring): the fold composes it.
  ASEN_NFD: 'A\u030Asen Elektro',
};

/** The end-to-end ids the search finds, sorted. */
async function found(store: Store, creditorNamePrefix: string, company = 'acme'): Promise<string[]> {
  const page = await store.consoleViews.searchPayments({ company, creditorNamePrefix, limit: 500 });
  return page.rows.map((p) => p.endToEndId).sort();
}

await onBothEngines((engine, open) => {
  describe(`creditor-name search folds case and form, not letters (${engine})`, () => {
    it('finds by the folded prefix, æ, ø and å as letters, scoped to the company', async () => {
      await withMigrated(open, async (db) => {
        const store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
        await store.files.recordAcceptedFile(
          paymentFile('fold'),
          Object.entries(NAMES).map(([e2e, creditorName], i) => payment(i + 1, { endToEndId: e2e, creditorName })),
        );
        // Many other creditors, so that the folded name's index is the selective one.
        await store.files.recordAcceptedFile(
          paymentFile('many'),
          Array.from({ length: 200 }, (_, i) =>
            payment(i + 1, { endToEndId: `M-${i}`, creditorName: `Supplier ${String(i).padStart(3, '0')}` }),
          ),
        );
        await store.files.recordAcceptedFile(paymentFile('other', { company: 'other' }), [
          payment(1, { endToEndId: 'OTHER-ORNULF', creditorName: 'Ørnulf Hansen AS' }),
        ]);

        for (const typed of ['ørn', 'ØRN', 'Ørn', 'ørnulf hansen', '  ØRNULF   HANSEN as '])
          expect(await found(store, typed), typed).toEqual(['ORNULF']);
        expect(await found(store, 'orn')).toEqual(['ORNES']);
        expect(await found(store, 'ÅSEN')).toEqual(['ASEN', 'ASEN_NFD']);
        expect(await found(store, 'A\u030ASEN B')).toEqual(['ASEN']);
        expect(await found(store, 'aasen')).toEqual(['AASEN']);
        expect(await found(store, 'a')).toEqual(['AASEN']);
        expect(await found(store, 'å')).toEqual(['ASEN', 'ASEN_NFD']);
        expect(await found(store, 'ÆRØ')).toEqual(['AEROE']);
        expect(await found(store, 'aero')).toEqual([]);
        expect(await found(store, 'NORDIC SUPPLIES AS')).toEqual(['NORDIC']);
        expect(await found(store, 'nOrDiC')).toEqual(['NORDIC']);
        expect(await found(store, 'ÉCLAIR')).toEqual(['ECLAIR']);
        expect(await found(store, 'eclair')).toEqual([]);
        expect(await found(store, 'supplier 01')).toHaveLength(10);
        expect(await found(store, 'Ørnulf', 'other')).toEqual(['OTHER-ORNULF']);

        // A range of the company's folded names; the few rows found are then sorted by date.
        const queries = captureQueries(db);
        await found(store, 'ørn');
        const [query] = queries;
        if (isSqlite(db)) {
          const plan: { detail: string }[] = await db.knex.raw(
            `explain query plan ${query!.sql}`,
            query!.bindings as never,
          );
          const details = plan.map((p) => p.detail).join('; ');
          expect(details).toContain('payments_console_creditor_folded_ix (company=? AND creditor_name_folded>? AND');
          expect(details).not.toMatch(/^SCAN |; SCAN /);
        } else {
          const [plan] = (await db.knex.raw(`explain ${query!.sql}`, query!.bindings as never)) as [Row[]];
          expect(plan.map((r) => [r.key, r.type])).toEqual([['payments_console_creditor_folded_ix', 'range']]);
        }
      });
    });

    it('migration 0761 folds the payments stored before it', async () => {
      const target = await open();
      const db = await openDatabase({ url: target.url });
      try {
        expect(await foldedBefore(db)).toEqual([
          ['p1', 'ørnulf hansen as'],
          ['p2', 'åsen bygg'],
          ['p3', 'nordic supplies as'],
          ['p4', 'ørnulf hansen as'],
        ]);
        if (!isSqlite(db)) {
          // Compared by code point, as on SQLite, whatever the server's default collation.
          const [rows] = (await db.knex.raw(
            "select collation_name as c from information_schema.columns where table_schema = database() and table_name = 'payments' and column_name = 'creditor_name_folded'",
          )) as [{ c: string }[]];
          expect(rows.map((r) => r.c)).toEqual(['utf8mb4_bin']);
        }
        const store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
        expect(await found(store, 'ØRN')).toEqual(['p1']);
        expect(await found(store, 'ørnulf', 'beta')).toEqual(['p4']);
        expect(await found(store, 'åsen')).toEqual(['p2']);
        expect(await found(store, 'NORDIC')).toEqual(['p3']);
      } finally {
        await db.close();
        await target.cleanup();
      }
    });
  });
});

/** Rows written as the code before migration 0761 wrote them, then the migration: (id, folded name). */
async function foldedBefore(db: Database): Promise<unknown[]> {
  const at = MIGRATIONS.findIndex((m) => m.name === '0761_creditor_name_folded');
  expect(at).toBeGreaterThan(0);
  await runMigrations(db.knex, db.description, MIGRATIONS.slice(0, at));
  const stamp = { created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' };
  const file = (id: string, company: string) => ({
    id,
    company,
    file_name: `${id}.csv`,
    sha256: id.padEnd(64, '0'),
    format: 'csv:generic',
    size_bytes: 1,
    state: 'submitted',
    received_at: '2026-01-01T00:00:00.000Z',
    ...stamp,
  });
  await db.knex('payment_files').insert([file('f1', 'acme'), file('f2', 'beta')]);
  const line = (id: string, fileId: string, company: string, n: number, creditorName: string) => ({
    id,
    file_id: fileId,
    line_number: n,
    company,
    end_to_end_id: id,
    debtor_iban: 'NO9386011117947',
    debtor_name: 'Acme AS',
    execution_date: '2026-01-02',
    amount_minor: 100,
    currency: 'NOK',
    creditor_iban: 'NO0612000000009',
    creditor_name: creditorName,
    state: 'ACSC',
    ...stamp,
  });
  await db
    .knex('payments')
    .insert([
      line('p1', 'f1', 'acme', 1, 'ØRNULF Hansen AS'),
      line('p2', 'f1', 'acme', 2, 'A\u030Asen Bygg'),
      line('p3', 'f1', 'acme', 3, ' Nordic\tSupplies  AS'),
      line('p4', 'f2', 'beta', 1, 'Ørnulf Hansen AS'),
    ]);
  await db.migrate();
  return (await db.knex('payments').select('id', 'creditor_name_folded').orderBy('id')).map(
    (r: Record<string, unknown>) => [r.id, r.creditor_name_folded],
  );
}
