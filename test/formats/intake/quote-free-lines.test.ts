// The CSV reader splits the lines before a file's first quote itself and hands the rest to
// csv-parse (src/formats/csv-profile/quote-free-lines.ts). Whatever the file and however its
// bytes are cut into chunks, it must read exactly what csv-parse alone reads: the same lines
// with the same numbers and values, the same issues.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReaderItem } from '../../../src/domain/validation/reader-item.js';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import { readCsv } from '../../../src/formats/csv-profile/read-csv.js';
import { QuoteFreeLines } from '../../../src/formats/csv-profile/quote-free-lines.js';
import { cut, cutText, HEADER, read } from './csv-chunks.js';
import { PROFILES } from './helpers.js';

const plainChar = fc.constantFrom('a', 'Z', '7', ' ', '.', '-', 'æ', 'ø', 'Å', 'é', '€', '😀', '\t');
const plainValue = fc.string({ unit: plainChar, maxLength: 12 });
/** A quoted value: delimiters, line breaks and doubled quotes inside. */
const quotedValue = fc
  .array(fc.oneof(plainChar, fc.constantFrom(',', '\n', '\r\n', '""')), { maxLength: 8 })
  .map((parts) => `"${parts.join('')}"`);
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

/** A CSV file: a header, rows of plain values, from `quotedFrom` on some quoted, odd line breaks and blank rows. */
const csvFile = fc
  .record({
    end: lineEnd,
    bom: fc.boolean(),
    trailing: fc.boolean(),
    quotedFrom: fc.option(fc.nat(12), { nil: undefined }),
    rows: fc.array(
      fc.record({
        values: fc.array(fc.tuple(plainValue, quotedValue, fc.nat(9)), { minLength: 0, maxLength: 10 }),
        // Another kind of line break inside the row (kept as a character by csv-parse), or a blank row.
        odd: fc.constantFrom('none', 'none', 'none', 'cr', 'lf', 'blank'),
      }),
      { maxLength: 25 },
    ),
  })
  .map(({ end, bom, trailing, quotedFrom, rows }) => {
    const lines = rows.map(({ values, odd }, i) => {
      if (odd === 'blank') return '';
      const cells = values.map(([plain, quoted, pick]) =>
        quotedFrom !== undefined && i >= quotedFrom && pick < 3 ? quoted : plain,
      );
      const row = cells.join(',');
      if (odd === 'cr' && end !== '\r') return `${row}\r${row}`;
      if (odd === 'lf' && end !== '\n' && end !== '\r\n') return `${row}\n${row}`;
      return row;
    });
    return `${bom ? '\uFEFF' : ''}${[HEADER, ...lines].join(end)}${trailing ? end : ''}`;
  });

describe('CSV lines split before the first quote', () => {
  it('reads what csv-parse alone reads, whatever the file and wherever its bytes are cut', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    await fc.assert(
      fc.asyncProperty(csvFile, fc.array(fc.nat(), { maxLength: 12 }), async (text, cuts) => {
        const bytes = Buffer.from(text);
        const reference = await read([bytes], profile, { splitQuoteFree: false });
        expect(await read(cut(bytes, cuts), profile, {})).toEqual(reference);
        // Text chunks (a file decoded from another encoding) take the same path.
        expect(await read(cutText(text, cuts), profile, {})).toEqual(reference);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a line over the record limit with its line number, after the lines before it', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const row = 'NO9386011117947,ACME AS,2026-01-07,E2E-1,10.00,NOK,NO0612000000009,Creditor AS';
    const text = `${HEADER}\n${row}\n${row}\n${'x'.repeat(500)}\n${row}\n`;
    for (const chunks of [[text], cut(Buffer.from(text), [10, 200, 300, 500])]) {
      const items: ReaderItem[] = [];
      for await (const batch of readCsv(chunks, profile, { maxRecordSize: 200 })) items.push(...batch);
      expect(items.map((i) => i.kind)).toEqual(['line', 'line', 'issue']);
      expect(items[2]).toMatchObject({
        kind: 'issue',
        issue: { code: 'CSV_RECORD_TOO_LARGE', location: { row: 4 } },
      });
      expect((items[2] as { issue: { message: string } }).issue.message).toContain('line 4');
    }
  });

  it('keeps no more than the record limit of a line that does not end', () => {
    const lines = new QuoteFreeLines(100);
    expect(lines.push(Buffer.from('a,b\n'))).toEqual({ lines: ['a,b'] });
    expect(lines.push(Buffer.from('x'.repeat(60)))).toEqual({ lines: [] });
    expect(lines.push(Buffer.from('x'.repeat(60)))).toEqual({ lines: [], tooLong: true });
  });

  it('waits for the next chunk when a CR ends the first one (CRLF or a bare CR?)', () => {
    const lines = new QuoteFreeLines(100);
    expect(lines.push('h1,h2\r')).toEqual({ lines: [] });
    expect(lines.lineEnd).toBeUndefined();
    expect(lines.push('\na,b\r\n')).toEqual({ lines: ['h1,h2', 'a,b'] });
    expect(lines.lineEnd).toBe('\r\n');
  });

  // The row of a record is the line it starts on, counted here from the text itself (not by
  // either reader): a guard for any change to how read-csv.ts counts the line feeds in values.
  it('numbers each row by the line it starts on, whatever line feeds its quoted values hold', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    const value = fc.oneof(plainValue, quotedValue);
    const file = fc.record({
      end: fc.constantFrom('\n', '\r\n'),
      trailing: fc.boolean(),
      rows: fc.array(fc.array(value, { minLength: 8, maxLength: 8 }), { minLength: 1, maxLength: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(file, fc.array(fc.nat(), { maxLength: 12 }), async ({ end, trailing, rows }, cuts) => {
        const lines = rows.map((cells) => cells.map((c) => (c === '' ? 'x' : c)).join(','));
        const text = `${[HEADER, ...lines].join(end)}${trailing ? end : ''}`;
        const starts: number[] = [];
        let at = HEADER.length + end.length;
        for (const line of lines) {
          starts.push(text.slice(0, at).split('\n').length);
          at += line.length + end.length;
        }
        const got = (await read(cut(Buffer.from(text), cuts), profile, {})).map((o) => (o as { line?: number }).line);
        expect(got).toEqual(starts);
      }),
      { numRuns: 300 },
    );
  });
});
