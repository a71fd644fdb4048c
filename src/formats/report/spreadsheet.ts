// A report's CSV as a person opens it in a spreadsheet in their language: the column heads in
// words from the catalogue, and the language's spreadsheet conventions (Catalogue.spreadsheetCsv:
// for bokmål ";" between cells, decimal commas and a UTF-8 BOM, as Norwegian Excel expects). It is
// made from the machine CSV, which keeps its documented column names and format for programs;
// every cell passes the formula rule again (../csv-safety.ts), with the language's decimal mark.
import { pipeline, Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CATALOGUES, translate, type Locale, type MessageKey } from '../../i18n/index.js';
import { neutraliseFormula, neutraliseNumericCell } from '../csv-safety.js';

export interface CsvWords {
  /** The catalogue key of a column's head, from its machine name. */
  head(column: string): MessageKey;
  /** The machine names of the columns that hold numbers (their decimal mark follows the language). */
  numeric: ReadonlySet<string>;
  /**
   * A text cell in the person's words (a finding's sentence in their language); `cellOf` reads
   * another column of the same row. Absent: the machine's text as it is.
   */
  text?: (column: string, cell: string, cellOf: (column: string) => string) => string;
}

const PLAIN_DECIMAL = /^-?\d+\.\d+$/;

/** The machine CSV for a person reading `locale`; English reads the machine CSV as it is. */
export function spreadsheetCsv(machine: string, locale: Locale, words: CsvWords): string {
  if (locale === 'en') return machine;
  const records: string[][] = parse(machine, { relax_column_count: true });
  const [head = [], ...rows] = records;
  const csv = peopleCsv(head, locale, words);
  return csv.start + csv.rows(rows);
}

/** Rows made at a time by spreadsheetCsvChunks: about half a MB of a findings CSV. */
const ROWS_PER_CHUNK = 1000;

/**
 * spreadsheetCsv made as the machine CSV is read, for a report sent as its parts are read: the
 * pieces may be cut anywhere (inside a row or a quoted cell), and the result, joined, is the same
 * text. It comes in chunks of `rowsPerChunk` rows after the heads, so no more than that many rows
 * are held. `textOf` gives a chunk's `text` (a finding's sentences looked up for its rows alone);
 * without it, `words.text`. English passes the pieces on as they are.
 */
export async function* spreadsheetCsvChunks(
  machine: AsyncIterable<string>,
  locale: Locale,
  words: CsvWords,
  options: {
    rowsPerChunk?: number;
    textOf?: (rows: readonly string[][], head: readonly string[]) => Promise<CsvWords['text']>;
  } = {},
): AsyncGenerator<string> {
  if (locale === 'en') {
    yield* machine;
    return;
  }
  const size = options.rowsPerChunk ?? ROWS_PER_CHUNK;
  // pipeline: a piece that fails (a part missing) fails the records too, and stopping the
  // records (the reader went away) stops the pieces. One piece read ahead at most, not 16.
  const records = pipeline(
    Readable.from(machine, { objectMode: true, highWaterMark: 1 }),
    parseStream({ relax_column_count: true }),
    () => undefined,
  );
  let csv: ReturnType<typeof peopleCsv> | undefined;
  let head: string[] = [];
  let rows: string[][] = [];
  const made = async () => {
    const text = options.textOf ? await options.textOf(rows, head) : words.text;
    const chunk = csv!.rows(rows, text);
    rows = [];
    return chunk;
  };
  for await (const record of records as AsyncIterable<string[]>) {
    if (!csv) {
      head = record;
      csv = peopleCsv(head, locale, words);
      yield csv.start;
      continue;
    }
    rows.push(record);
    if (rows.length >= size) yield await made();
  }
  if (!csv) yield peopleCsv([], locale, words).start;
  else if (rows.length > 0) yield await made();
}

/** The person's CSV of a machine CSV with these heads: its start (BOM, heads) and its rows, in parts that join. */
function peopleCsv(head: readonly string[], locale: Locale, words: CsvWords) {
  const { delimiter, decimalMark, bom } = CATALOGUES[locale].spreadsheetCsv;
  const format = { delimiter, record_delimiter: '\r\n' };
  const numeric = head.map((name) => words.numeric.has(name));
  const heads = head.map((name) => translate(locale, words.head(name)));
  return {
    start: (bom ? '\ufeff' : '') + stringify([heads], format),
    rows(rows: readonly string[][], text: CsvWords['text'] = words.text): string {
      const inWords = text ?? ((_: string, cell: string) => cell);
      const body = rows.map((row) => {
        const cellOf = (column: string) => row[head.indexOf(column)] ?? '';
        return row.map((cell, i) =>
          numeric[i]
            ? neutraliseNumericCell(PLAIN_DECIMAL.test(cell) ? cell.replace('.', decimalMark) : cell, decimalMark)
            : neutraliseFormula(inWords(head[i] ?? '', cell, cellOf)),
        );
      });
      return stringify(body, format);
    },
  };
}
