// A report's CSV as a person opens it in a spreadsheet in their language: the column heads in
// words from the catalogue, and the language's spreadsheet conventions (Catalogue.spreadsheetCsv:
// for bokmål ";" between cells, decimal commas and a UTF-8 BOM, as Norwegian Excel expects). It is
// made from the machine CSV, which keeps its documented column names and format for programs;
// every cell passes the formula rule again (../csv-safety.ts), with the language's decimal mark.
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
  const { delimiter, decimalMark, bom } = CATALOGUES[locale].spreadsheetCsv;
  const records: string[][] = parse(machine, { relax_column_count: true });
  const [head = [], ...rows] = records;
  const numeric = head.map((name) => words.numeric.has(name));
  const text = words.text ?? ((_: string, cell: string) => cell);
  const body = rows.map((row) => {
    const cellOf = (column: string) => row[head.indexOf(column)] ?? '';
    return row.map((cell, i) =>
      numeric[i]
        ? neutraliseNumericCell(PLAIN_DECIMAL.test(cell) ? cell.replace('.', decimalMark) : cell, decimalMark)
        : neutraliseFormula(text(head[i] ?? '', cell, cellOf)),
    );
  });
  const heads = head.map((name) => translate(locale, words.head(name)));
  const csv = stringify([heads, ...body], { delimiter, record_delimiter: '\r\n' });
  return bom ? `\ufeff${csv}` : csv;
}
