// From a file's first quote on, the CSV reader splits the records itself while they have the shape
// csv-parse reads the same way, and hands the rest of the file to csv-parse at the first record of
// another shape (src/formats/csv-profile/quoted-lines.ts). Whatever the file, broken quotes and
// records over the limit included, and however its bytes are cut, it must read exactly what
// csv-parse alone reads: the same lines with the same numbers and values, the same issues with the
// same rows and messages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/formats/csv-profile/load-profile.js';
import type { CsvReadOptions } from '../../../src/formats/csv-profile/read-csv.js';
import { QuoteFreeLines } from '../../../src/formats/csv-profile/quote-free-lines.js';
import { QuotedLines } from '../../../src/formats/csv-profile/quoted-lines.js';
import { cut, cutText, HEADER, read } from './csv-chunks.js';
import { PROFILES } from './helpers.js';

const plainChar = fc.constantFrom('a', 'Z', '7', ' ', '.', 'æ', 'Å', '€', '😀', '\t');
const plainValue = fc.string({ unit: plainChar, maxLength: 10 });
/** A well-formed quoted value: delimiters, line breaks of every kind and doubled quotes inside. */
const quotedValue = fc
  .array(fc.oneof(plainChar, fc.constantFrom(',', '\n', '\r\n', '\r', '""')), { maxLength: 8 })
  .map((parts) => `"${parts.join('')}"`);
/** Anything at all of quotes, delimiters and line breaks: an unclosed quote, `"a"b`, `12" pipe`, a stray CR. */
const oddValue = fc
  .array(fc.constantFrom('a', '"', '"', ',', '\n', '\r', '\uFEFF', ' '), { maxLength: 6 })
  .map((parts) => parts.join(''));

const csvFile = fc
  .record({
    end: fc.constantFrom('\n', '\r\n', '\r'),
    bom: fc.boolean(),
    quotedHeader: fc.boolean(),
    trailing: fc.boolean(),
    rows: fc.array(
      fc.array(fc.oneof({ weight: 4, arbitrary: plainValue }, { weight: 4, arbitrary: quotedValue }, oddValue), {
        maxLength: 9,
      }),
      { maxLength: 20 },
    ),
  })
  .map(({ end, bom, quotedHeader, trailing, rows }) => {
    const header = quotedHeader
      ? HEADER.split(',')
          .map((h) => `"${h}"`)
          .join(',')
      : HEADER;
    const lines = rows.map((values) => values.join(','));
    return `${bom ? '\uFEFF' : ''}${[header, ...lines].join(end)}${trailing ? end : ''}`;
  });

describe('CSV records split from the first quote on', () => {
  it('reads what csv-parse alone reads, broken quotes and the record limit included, wherever the bytes are cut', async () => {
    const profile = await loadProfile('generic', [PROFILES]);
    await fc.assert(
      fc.asyncProperty(
        csvFile,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom<CsvReadOptions>({}, { maxRecordSize: 60 }, { maxMalformedRecords: 2 }),
        async (text, cuts, options) => {
          // After a record over the limit, csv-parse drops the rest of the chunk it is parsing, so
          // what it reports next depends on how its input is cut, in either reader: compared up to
          // that issue.
          const got = async (chunks: readonly (string | Buffer)[], splitQuoted: boolean): Promise<unknown[]> => {
            const items = await read(chunks, profile, { ...options, splitQuoted }, true);
            const tooLarge = items.findIndex((i) => JSON.stringify(i).includes('"CSV_RECORD_TOO_LARGE"'));
            return tooLarge < 0 ? items : items.slice(0, tooLarge + 1);
          };
          // The reference: the same chunks read with csv-parse from the chunk with the first quote
          // on (before it, both split the lines alike, quote-free-lines.test.ts). In one chunk, that
          // is csv-parse alone on any file with a quote.
          const bytes = Buffer.from(text);
          expect(await read([bytes], profile, options, true)).toEqual(
            await read([bytes], profile, { ...options, splitQuoted: false }, true),
          );
          const chunks = cut(bytes, cuts);
          expect(await got(chunks, true)).toEqual(await got(chunks, false));
          // Text chunks (a file decoded from another encoding) take the same path.
          const strings = cutText(text, cuts);
          expect(await got(strings, true)).toEqual(await got(strings, false));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('splits well-formed quoted records itself and leaves the first record of another shape to csv-parse', () => {
    const taken: [string[], number][] = [];
    const take = (record: string[], lineFeeds: number): boolean => taken.push([record, lineFeeds]) > 0;
    const lines = new QuotedLines(new QuoteFreeLines(1000), ',', 0, 1000);
    expect(lines.push('"h1","h2"\r\n"a ""b""",",\r\nc"\r\n', take)).toBe(false);
    expect(lines.lineEnd).toBe('\r\n');
    expect(taken).toEqual([
      [['h1', 'h2'], 0],
      [['a "b"', ',\r\nc'], 1],
    ]);
    // csv-parse counts each CR and LF as a line, a CRLF line end once.
    expect(lines.linesBefore).toBe(4);
    expect(lines.push('12" pipe,x\r\n"d"e,f\r\ng,h\r\n', take)).toBe(true);
    expect(taken.at(-1)).toEqual([['12" pipe', 'x'], 0]);
    expect(lines.rest()).toEqual(['"d"e,f\r\ng,h\r\n']);
  });

  it('leaves a record that could be longer than the limit in bytes to csv-parse', () => {
    const taken: string[][] = [];
    const lines = new QuotedLines(new QuoteFreeLines(30), ',', 0, 30);
    expect(lines.push('"a","b"\n"ccc","ddddd"\n', (r) => taken.push(r) > 0)).toBe(true);
    expect(taken).toEqual([['a', 'b']]);
    expect(lines.rest()).toEqual(['"ccc","ddddd"\n']);
  });
});
