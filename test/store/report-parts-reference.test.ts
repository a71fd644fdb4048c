// Migration 0766: report_parts.report_id refers to reports. Parts left from a report deleted by
// hand before the upgrade are deleted by the migration instead of failing it; afterwards the
// database refuses a part for a report that is not there, and a report with its parts reads as
// before (retention deleting both: test/store/report-parts.test.ts).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, MIGRATIONS, openDatabase } from '../../src/store/index.js';
import { runMigrations } from '../../src/store/migrator.js';
import { onBothEngines } from '../support/engines.js';

const company = 'acme';

function report(id: string, parts: number) {
  return {
    id,
    company,
    kind: 'error',
    subject_type: 'payment_file',
    subject_id: `file-${id}`,
    name: `${id}.txt`,
    media_type: 'text/plain',
    content: '',
    parts,
    created_at: '2026-01-08T06:00:00.000Z',
  };
}

await onBothEngines((engine, open) => {
  describe(`the reference of a report's parts on ${engine}`, () => {
    it(
      'deletes parts whose report is gone, keeps the others, then refuses a part without its report',
      {
        timeout: 120_000,
      },
      async () => {
        const target = await open();
        const db = await openDatabase({ url: target.url });
        try {
          const before = MIGRATIONS.filter((m) => m.name !== '0766_report_parts_reference');
          expect(before.length).toBe(MIGRATIONS.length - 1);
          await runMigrations(db.knex, db.description, before);
          await db.knex('reports').insert([report('kept', 2), report('gone', 1)]);
          await db.knex('report_parts').insert([
            { report_id: 'kept', part: 0, content: 'Linje 3: beløpet mangler 😀\n' },
            { report_id: 'kept', part: 1, content: 'Linje 4: kontoen er ugyldig\n' },
            { report_id: 'gone', part: 0, content: 'orphan\n' },
            { report_id: 'never-recorded', part: 0, content: 'orphan\n' },
          ]);
          // The report deleted by hand, its part left: nothing before 0766 stopped that.
          await db.knex('reports').where({ id: 'gone' }).delete();

          expect((await db.migrate()).applied).toEqual(['0766_report_parts_reference']);

          const left = await db.knex('report_parts').orderBy(['report_id', 'part']).select('report_id', 'part');
          expect(
            left.map((r: { report_id: unknown; part: unknown }) => `${String(r.report_id)}/${Number(r.part)}`),
          ).toEqual(['kept/0', 'kept/1']);
          const store = createStore(db, new ManualClock('2026-01-08T07:00:00Z'));
          expect((await store.reports.find(company, 'kept'))?.content).toBe(
            'Linje 3: beløpet mangler 😀\nLinje 4: kontoen er ugyldig\n',
          );
          await expect(
            db.knex('report_parts').insert({ report_id: 'no-such-report', part: 0, content: 'x' }),
          ).rejects.toThrow(/FOREIGN KEY|foreign key/);
          // The key survived SQLite's rebuild: a part is still one row per (report, part).
          await expect(
            db.knex('report_parts').insert({ report_id: 'kept', part: 1, content: 'again' }),
          ).rejects.toThrow(/UNIQUE|Duplicate/);
          // And a report recorded after it, with its parts, reads back whole.
          const entry = await store.reports.record({
            company,
            kind: 'error',
            subject: { type: 'payment_file', id: 'file-new' },
            name: 'new.txt',
            mediaType: 'text/plain',
            content: 'Linje 1: ok\n',
          });
          expect((await store.reports.find(company, entry.id))?.content).toBe('Linje 1: ok\n');
        } finally {
          await db.close();
          await target.cleanup();
        }
      },
    );
  });
});
