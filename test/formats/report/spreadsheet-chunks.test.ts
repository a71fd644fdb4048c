// The CSV a person opens from the console, made as a recorded report's parts are read
// (src/formats/report/spreadsheet.ts, spreadsheetCsvChunks; csv.ts, findingsCsvForPeopleChunks):
// whatever the cuts between the pieces (inside a row, a quoted cell, a multi-byte character's
// neighbours), the chunks join to the CSV made whole; the findings' sentences are asked a chunk
// of rows at a time; the first chunk comes before the last piece is read; a piece that fails
// fails the CSV; English passes the pieces on untouched.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/reconcile/findings.js';
import {
  findingsCsvForPeople,
  findingsCsvForPeopleChunks,
  renderFindingsCsv,
  type FindingSentences,
} from '../../../src/formats/report/index.js';
import { sampleResult } from './sample.js';

/** Findings with quotes, commas and line breaks in their texts, and Norwegian letters. */
function findings(count: number): Finding[] {
  const sample = sampleResult().findings;
  return Array.from({ length: count }, (_, i) => {
    const f = sample[i % sample.length]!;
    return { ...f, id: `F-${i}`, message: `${f.message} "${i}", blåbær æøå 🧾` };
  });
}

/** `text` cut at fixed-seed random places into pieces of 1 to `longest` code units. */
function cut(text: string, longest: number, seed: number): string[] {
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + 1 + Math.floor(random() * longest));
    // As the store cuts: never inside a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/** The pieces one by one, counting how many were taken. */
function source(pieces: readonly string[]) {
  const read = { count: 0 };
  async function* iterate() {
    for (const piece of pieces) {
      // As a query for a part answers: later.
      await Promise.resolve();
      read.count++;
      yield piece;
    }
  }
  return { read, pieces: iterate() };
}

async function joined(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

const noSentences = () => Promise.resolve(new Map());

describe('the CSV a person opens, made as the report is read', () => {
  const all = findings(400);
  const machine = renderFindingsCsv(all);
  // Sentences in words for every other finding, as the store gives them (the row's English).
  const sentences: FindingSentences = new Map(
    all
      .filter((f, i) => i % 2 === 0 && f.said)
      .map((f) => [f.id!, { summary: f.message, summaryText: f.said! }] as const),
  );

  it('joins to the CSV made whole, however the pieces are cut and the rows chunked', async () => {
    const whole = findingsCsvForPeople(machine, 'nb', sentences);
    expect(whole).not.toBe(findingsCsvForPeople(machine, 'nb'));
    for (const [longest, rows, seed] of [
      [1, 7, 1],
      [13, 1, 2],
      [500, 50, 3],
      [machine.length, 1000, 4],
    ] as const) {
      const { pieces } = source(cut(machine, longest, seed));
      const lookUp = (ids: string[]) => Promise.resolve(new Map([...sentences].filter(([id]) => ids.includes(id))));
      expect(await joined(findingsCsvForPeopleChunks(pieces, 'nb', lookUp, rows)), `${longest}/${rows}`).toBe(whole);
    }
  });

  it("asks each chunk's sentences for its rows alone", async () => {
    const asked: string[][] = [];
    const lookUp = (ids: string[]) => (asked.push(ids), Promise.resolve(sentences));
    await joined(findingsCsvForPeopleChunks(source([machine]).pieces, 'nb', lookUp, 150));
    expect(asked.map((ids) => ids.length)).toEqual([150, 150, 100]);
    expect(asked.flat()).toEqual(all.map((f) => f.id));
  });

  it('gives its first chunk before the last piece is read', async () => {
    const { read, pieces } = source(cut(machine, 200, 5));
    const total = cut(machine, 200, 5).length;
    const chunks = findingsCsvForPeopleChunks(pieces, 'nb', noSentences, 10);
    const heads = await chunks.next();
    expect(heads.value).toMatch(/^\ufeffAvvikstype;/);
    const rows = await chunks.next();
    expect(rows.value.split('\r\n')).toHaveLength(11);
    expect(read.count).toBeLessThan(total / 4);
    await chunks.return(undefined);
  });

  it('fails when a piece fails, never ending as if whole', async () => {
    async function* failing() {
      yield machine.slice(0, 5000);
      await Promise.resolve();
      throw new Error('report r-1 is missing its parts: part 1 of 3 is not recorded');
    }
    await expect(joined(findingsCsvForPeopleChunks(failing(), 'nb', noSentences, 5))).rejects.toThrow(
      'report r-1 is missing its parts',
    );
  });

  it('is the pieces untouched in English, asking no sentences', async () => {
    const pieces = cut(machine, 700, 6);
    const asked: string[][] = [];
    const chunks: string[] = [];
    const lookUp = (ids: string[]) => (asked.push(ids), Promise.resolve(sentences));
    for await (const chunk of findingsCsvForPeopleChunks(source(pieces).pieces, 'en', lookUp)) chunks.push(chunk);
    expect(chunks).toEqual(pieces);
    expect(asked).toEqual([]);
  });

  it('makes an empty report and one of heads alone as made whole', async () => {
    for (const text of ['', machine.slice(0, machine.indexOf('\r\n') + 2)])
      expect(await joined(findingsCsvForPeopleChunks(source([text]).pieces, 'nb', noSentences))).toBe(
        findingsCsvForPeople(text, 'nb'),
      );
  });
});
