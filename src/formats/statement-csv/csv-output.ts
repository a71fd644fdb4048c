// What every CSV file settle writes for an ERP has in common: delimiter, decimal separator,
// encoding (older ERPs want ISO-8859-1 or Windows-1252), line endings, quoting by csv-stringify,
// formula injection neutralised (../csv-safety.ts), and characters the encoding cannot carry
// transliterated (any-ascii) and reported, never silently turned into "?".
import anyAscii from 'any-ascii';
import iconv from 'iconv-lite';
import { stringify } from 'csv-stringify/sync';
import { SettleError } from '../../domain/errors.js';
import type { Issue } from '../../domain/issue.js';
import { neutraliseFormula, neutraliseNumericCell } from '../csv-safety.js';

export type CsvEncoding = 'utf-8' | 'utf-8-bom' | 'iso-8859-1' | 'windows-1252';

export interface CsvOutputOptions {
  /** Default ";" (the separator ERPs in decimal-comma locales expect). */
  delimiter?: string;
  /** Default ".". */
  decimalSeparator?: '.' | ',';
  /** Default "utf-8". */
  encoding?: CsvEncoding;
  /** Default "\r\n". */
  lineEnding?: '\r\n' | '\n';
  /** Write the header row (default true). */
  header?: boolean;
  /** Rows per chunk (default 1000). */
  rowsPerChunk?: number;
  /** Receives each issue as it arises instead of collecting them in `issues`. */
  onIssue?: (issue: Issue) => void;
}

export type CellKind = 'text' | 'number';

export interface CsvColumn {
  name: string;
  kind: CellKind;
}

const PLAIN_ASCII = /^[\x20-\x7e]*$/;
const LINE_CONTROLS = /[\t\r\n]/g;
const HAS_LINE_CONTROL = /[\t\r\n]/;

/**
 * Turns rows of raw cell values into encoded chunks. Row numbers in issues are physical lines
 * (the header is line 1); cells never contain line breaks, so records and lines coincide.
 */
export class CsvEncoder {
  private readonly delimiter: string;
  private readonly decimalSeparator: '.' | ',';
  private readonly encoding: CsvEncoding;
  private readonly lineEnding: '\r\n' | '\n';
  private readonly report: (issue: Issue) => void;
  private readonly pending: string[][] = [];
  private line: number;
  private first = true;

  constructor(
    private readonly columns: readonly CsvColumn[],
    options: CsvOutputOptions,
    report: (issue: Issue) => void,
  ) {
    this.delimiter = options.delimiter ?? ';';
    this.decimalSeparator = options.decimalSeparator ?? '.';
    this.encoding = options.encoding ?? 'utf-8';
    this.lineEnding = options.lineEnding ?? '\r\n';
    this.report = report;
    if (this.delimiter.length === 0 || /["\r\n]/.test(this.delimiter) || this.delimiter === this.decimalSeparator) {
      throw new SettleError(
        'ERR_EXPORT_CSV_OPTIONS',
        `CSV delimiter ${JSON.stringify(this.delimiter)} cannot be used (it is empty, a quote or line break, or the decimal separator "${this.decimalSeparator}")`,
      );
    }
    this.line = 1;
    if (options.header ?? true) this.pending.push(columns.map((c) => c.name));
    else this.line = 0;
  }

  get decimal(): '.' | ',' {
    return this.decimalSeparator;
  }

  /** Adds one record; `cells` follow the column order, undefined = empty. */
  add(cells: readonly (string | undefined)[]): void {
    this.line++;
    const row: string[] = new Array<string>(this.columns.length);
    for (let i = 0; i < this.columns.length; i++) {
      const column = this.columns[i]!;
      let cell = cells[i] ?? '';
      if (!PLAIN_ASCII.test(cell)) cell = this.clean(cell, i + 1, column.name);
      row[i] = column.kind === 'number' ? neutraliseNumericCell(cell, this.decimalSeparator) : neutraliseFormula(cell);
    }
    this.pending.push(row);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Encodes and clears what was added; the first chunk carries the BOM when asked for. */
  flush(): Buffer {
    const text =
      this.pending.length === 0
        ? ''
        : stringify(this.pending, { delimiter: this.delimiter, record_delimiter: this.lineEnding, eof: true });
    this.pending.length = 0;
    const bom = this.first && this.encoding === 'utf-8-bom';
    this.first = false;
    if (this.encoding === 'utf-8' || this.encoding === 'utf-8-bom') {
      const body = Buffer.from(text, 'utf8');
      return bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
    }
    return iconv.encode(text, this.encoding);
  }

  /** Line controls become spaces; characters the encoding lacks are transliterated. */
  private clean(cell: string, column: number, name: string): string {
    let text = cell;
    if (HAS_LINE_CONTROL.test(text)) {
      text = text.replace(LINE_CONTROLS, ' ');
      this.issue('TEXT_SANITISED', column, name, 'tabs and line breaks were replaced by spaces');
    }
    if (this.encoding === 'utf-8' || this.encoding === 'utf-8-bom') return text;
    let out = '';
    let replaced = false;
    for (const ch of text) {
      if (this.encodable(ch)) {
        out += ch;
      } else {
        const ascii = anyAscii(ch);
        out += ascii === '' || ascii.startsWith(':') ? '?' : ascii;
        replaced = true;
      }
    }
    if (replaced)
      this.issue(
        'CSV_CHAR_REPLACED',
        column,
        name,
        `characters ${this.encoding} cannot encode were transliterated (or replaced by "?")`,
      );
    return out;
  }

  private encodable(ch: string): boolean {
    if (ch.charCodeAt(0) < 0x80) return true;
    return iconv.decode(iconv.encode(ch, this.encoding), this.encoding) === ch;
  }

  private issue(code: string, column: number, field: string, message: string): void {
    this.report({ code, severity: 'warning', location: { row: this.line, column }, field, message });
  }
}
