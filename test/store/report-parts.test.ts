// A report of any size is recorded and read back identically on both engines (migration 0765):
// the reconcile job's CSV of a big period passed MariaDB's max_allowed_packet (16 MB by default)
// when it was one row's content, and the night's job failed after its files were written. The
// content now goes in parts of at most 1 MB of UTF-8, split between characters, never inside a
// surrogate pair; a report recorded before the parts (its content in the row) still reads, and
// retention deletes a report's parts with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import {
  createStore,
  openDatabase,
  RetentionRepository,
  type Database,
  type PurgeCounts,
} from '../../src/store/index.js';
import { REPORT_PART_UNITS, reportParts } from '../../src/store/reports.js';
import { onBothEngines, type EngineTarget } from '../support/engines.js';

const company = 'acme';
const MB = 1024 * 1024;

/** A CSV-like text of about `bytes` bytes whose lines vary, so a misplaced part shows. */
function bigCsv(bytes: number, line: (i: number) => string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = line(i);
    lines.push(l);
    size += Buffer.byteLength(l) + 1;
  }
  return lines.join('\n') + '\n';
}

const ascii = (i: number) => `F-${i},unmatched_debit,needs_person,${i * 7} NOK,booking t-${i},no payment matches`;
// Norwegian letters (2 bytes each) and emoji (a surrogate pair, 4 bytes) in every line, with the
// line length shifting so part boundaries fall on every kind of character.
const nordic = (i: number) => `F-${i},æøå ÆØÅ ${'x'.repeat(i % 5)}😀🧾 betaling ${i},blåbærsyltetøy 👩‍👩‍👧`;

function recordInput(content: string) {
  return {
    company,
    kind: 'reconciliation' as const,
    subject: { type: 'reconcile_run' as const, id: 'run-1' },
    name: 'reconciliation-acme.csv',
    mediaType: 'text/csv' as const,
    content,
  };
}

async function partRows(db: Database, reportId: string): Promise<string[]> {
  const rows = await db.knex('report_parts').where({ report_id: reportId }).orderBy('part').select('content');
  return rows.map((r: { content: unknown }) => String(r.content));
}

describe('a report split into parts (pure)', () => {
  it('splits into parts of at most 1 MB of UTF-8, never inside a surrogate pair, that join to the text', () => {
    const text = bigCsv(3 * MB, nordic);
    const parts = reportParts(text);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(MB);
      expect(part.length).toBeLessThanOrEqual(REPORT_PART_UNITS);
      // No lone surrogate at either end: the UTF-8 of the part decodes back to the part.
      expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
    }
  });

  it('cuts before a pair whose high half would end a part, for every position of the pair', () => {
    for (let shift = 0; shift < 4; shift++) {
      const text = 'a'.repeat(REPORT_PART_UNITS - 2 + shift) + '😀'.repeat(3) + 'z';
      const parts = reportParts(text);
      expect(parts.join('')).toBe(text);
      for (const part of parts) expect(Buffer.from(part, 'utf8').toString('utf8')).toBe(part);
    }
  });

  it('splits generated texts of every kind of character into parts that join back, each whole UTF-8', () => {
    // A fixed-seed generator: ASCII, 2-byte (æ), 3-byte (€) and 4-byte (emoji) characters in
    // random runs, at lengths around one, two and three parts.
    let seed = 0x5eed;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const alphabet = ['a', ',', '\n', 'æ', 'Ø', '€', '😀', '🧾'];
    for (let n = 0; n < 12; n++) {
      const target = Math.floor(REPORT_PART_UNITS * (0.5 + random() * 2.7));
      const chars: string[] = [];
      for (let units = 0; units < target;) {
        const c = alphabet[Math.floor(random() * alphabet.length)]!;
        chars.push(c);
        units += c.length;
      }
      const text = chars.join('');
      const parts = reportParts(text);
      expect(parts.join('') === text).toBe(true);
      // Full parts but the last: a part is cut at most one unit early, before a pair.
      for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(REPORT_PART_UNITS - 1);
      for (const part of parts) {
        expect(part.length).toBeGreaterThan(0);
        expect(part.length).toBeLessThanOrEqual(REPORT_PART_UNITS);
        expect(Buffer.byteLength(part)).toBeLessThanOrEqual(MB);
        expect(Buffer.from(part, 'utf8').toString('utf8') === part).toBe(true);
      }
    }
  });

  it('keeps an empty report as no parts and a small one as one', () => {
    expect(reportParts('')).toEqual([]);
    expect(reportParts('a,b\n')).toEqual(['a,b\n']);
  });
});

await onBothEngines((engine, open) => {
  describe(`a report larger than the server's packet on ${engine}`, () => {
    // One migrated database for the cases: migrating is most of a case's time on MariaDB.
    let target: EngineTarget;
    let db: Database;
    const store = () => createStore(db, new ManualClock('2026-01-08T06:00:00Z'));
    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
    }, 120_000);
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('records a 20 MB report and reads it back identical', { timeout: 120_000 }, async () => {
      const content = bigCsv(20 * MB, ascii);
      expect(Buffer.byteLength(content)).toBeGreaterThan(16 * MB);
      const entry = await store().reports.record(recordInput(content));
      const found = await store().reports.find(company, entry.id);
      expect(found?.content.length).toBe(content.length);
      expect(found?.content === content).toBe(true);
      expect(found).toMatchObject({ id: entry.id, name: 'reconciliation-acme.csv', mediaType: 'text/csv' });
      const parts = await partRows(db, entry.id);
      expect(parts.length).toBeGreaterThanOrEqual(20);
      for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(MB);
    });

    it.runIf(engine === 'MariaDB')(
      'is a report the server refuses as one row (the defect: max_allowed_packet is 16 MB)',
      { timeout: 60_000 },
      async () => {
        // On a connection of its own: the server closes the one it refuses a packet on.
        const own = await openDatabase({ url: target.url });
        try {
          const [[row]] = (await own.knex.raw('select @@max_allowed_packet as packet')) as [[{ packet: unknown }]];
          expect(Number(row.packet)).toBeLessThan(20 * MB);
          await expect(
            own.knex('reports').insert({
              id: 'one-row',
              company,
              kind: 'reconciliation',
              subject_type: 'reconcile_run',
              subject_id: 'run-0',
              name: 'reconciliation-acme.csv',
              media_type: 'text/csv',
              content: bigCsv(20 * MB, ascii),
              created_at: '2026-01-08T06:00:00.000Z',
            }),
            // The server answers the packet's error and closes the connection; the driver reports
            // whichever of the two it reads first, so both mean the row was refused.
          ).rejects.toThrow(/max_allowed_packet|ER_NET_PACKET_TOO_LARGE|ECONNRESET/);
        } finally {
          await own.close();
        }
      },
    );

    it('reads back a 3 MB report with æøå and emoji across part boundaries', { timeout: 60_000 }, async () => {
      const content = bigCsv(3 * MB, nordic);
      const entry = await store().reports.record(recordInput(content));
      expect((await store().reports.find(company, entry.id))?.content === content).toBe(true);
      const parts = await partRows(db, entry.id);
      expect(parts.length).toBeGreaterThan(3);
      expect(parts.join('') === content).toBe(true);
      // The boundaries fall inside the non-ASCII text, and no part ends in half a pair.
      expect(parts.some((p) => p.charCodeAt(p.length - 1) > 0x7f)).toBe(true);
      for (const part of parts) expect(/[\ud800-\udbff]$/.test(part)).toBe(false);
    });

    it('records an empty report and reads it back empty', async () => {
      const entry = await store().reports.record(recordInput(''));
      expect((await store().reports.find(company, entry.id))?.content).toBe('');
    });

    it('still reads a report recorded before the parts, with its content in the row', async () => {
      await db.knex('reports').insert({
        id: 'old-report',
        company,
        kind: 'error',
        subject_type: 'payment_file',
        subject_id: 'file-1',
        name: 'refused-file.txt',
        media_type: 'text/plain',
        content: 'Linje 3: beløpet mangler 😀\n',
        created_at: '2026-01-01T06:00:00.000Z',
      });
      expect(await store().reports.find(company, 'old-report')).toMatchObject({
        id: 'old-report',
        content: 'Linje 3: beløpet mangler 😀\n',
      });
    });

    it('refuses, naming the report, to read one whose parts are not all there', async () => {
      const content = bigCsv(2 * MB, ascii);
      const entry = await store().reports.record(recordInput(content));
      const count = reportParts(content).length;
      await db.knex('report_parts').where({ report_id: entry.id, part: 1 }).delete();
      await expect(store().reports.find(company, entry.id)).rejects.toThrow(
        `report ${entry.id} is missing its parts: part 1 of ${count} is not recorded`,
      );
      await db
        .knex('report_parts')
        .where({ report_id: entry.id, part: count - 1 })
        .delete();
      await db.knex('report_parts').insert({ report_id: entry.id, part: 1, content: 'x' });
      await expect(store().reports.find(company, entry.id)).rejects.toThrow(
        `report ${entry.id} is missing its parts: part ${count - 1} of ${count} is not recorded`,
      );
      await db.knex('report_parts').insert([
        { report_id: entry.id, part: count - 1, content: 'y' },
        { report_id: entry.id, part: count, content: 'z' },
      ]);
      await expect(store().reports.find(company, entry.id)).rejects.toThrow(
        `report ${entry.id} has more parts than the ${count} recorded with it`,
      );
    });

    it("deletes a report's parts with it when retention purges it", { timeout: 60_000 }, async () => {
      const other = 'retention-parts';
      const old = await createStore(db, new ManualClock('2000-01-08T06:00:00Z')).reports.record({
        ...recordInput(bigCsv(2 * MB, nordic)),
        company: other,
      });
      const kept = await store().reports.record({ ...recordInput('kept\n'), company: other });
      expect((await partRows(db, old.id)).length).toBeGreaterThan(1);
      const counts: PurgeCounts = {};
      await new RetentionRepository(db, { batchSize: 2 }).purgeStatements(
        { company: other, day: '2000-12-31', start: new Date('2001-01-01T00:00:00Z') },
        counts,
      );
      expect(counts).toMatchObject({ reports: 1 });
      expect(await store().reports.find(other, old.id)).toBeUndefined();
      expect(await partRows(db, old.id)).toEqual([]);
      expect((await store().reports.find(other, kept.id))?.content).toBe('kept\n');
    });
  });
});
