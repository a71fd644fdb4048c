// Streaming CSV reader: text (or UTF-8 bytes) in, raw payments out (each field with its row and
// column). The lines before the file's first quote character are split here (quote-free-lines.ts),
// and from the chunk with the first quote on the records as long as they are well-formed
// (quoted-lines.ts); from the first record of another shape on, csv-parse reads. Broken records are
// skipped by csv-parse and reported as located issues; reading goes on, so one pass finds every
// problem. Memory is bounded by the largest record (maxRecordSize), not by the file.
import { parse, type CsvError, type Parser } from 'csv-parse';
import type { Issue, IssueLocation } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { PaymentField, RawField, RawPaymentLine } from '../../domain/validation/raw-line.js';
import { emptyFields, REQUIRED_FIELDS } from '../../domain/validation/raw-line.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import { ColumnChecks } from './column-checks.js';
import type { CsvProfile } from './profile.js';
import { QuoteFreeLines, type SplitLines } from './quote-free-lines.js';
import { QuotedLines } from './quoted-lines.js';

export interface CsvReadOptions {
  /** Largest record in characters; a longer one is a CSV_RECORD_TOO_LARGE issue and ends the read. */
  maxRecordSize?: number;
  /** Malformed records reported before reading stops (default 100). */
  maxMalformedRecords?: number;
  /**
   * Lines before the file's first quote character are split without csv-parse (default true);
   * false: csv-parse reads every line, the reference the tests compare the split with.
   */
  splitQuoteFree?: boolean;
  /**
   * Records from the first quote on are split without csv-parse while they have the plain shape
   * (quoted-lines.ts; default true); false: csv-parse reads from the chunk with the first quote.
   */
  splitQuoted?: boolean;
}

/** A line of the quote-free part longer than the record limit (csv-parse's CSV_MAX_RECORD_SIZE there). */
class RecordTooLarge extends Error {
  constructor(
    readonly row: number,
    limit: number,
  ) {
    super(`the record starting on line ${row} is longer than ${limit.toLocaleString('en')} characters`);
  }
}

class TooManyMalformed extends Error {
  constructor(readonly limit: number) {
    super(`${limit} malformed records; reading stopped (is the delimiter or quote of the profile right?)`);
  }
}

export async function* readCsv(
  text: AsyncIterable<string | Buffer> | Iterable<string | Buffer>,
  profile: CsvProfile,
  options: CsvReadOptions = {},
): AsyncGenerator<ReaderItem[]> {
  let batch: ReaderItem[] = [];
  // The profile's fields found in the header and their columns, as two arrays: a plain loop
  // over numbers a record, no pair taken apart per field.
  let fieldsRead: PaymentField[] | undefined;
  let columnsRead: number[] = [];
  let headerLength = 0;
  // The profile's column rules, from the header on; `counts`: rows count towards control totals.
  let checks: ColumnChecks | undefined;
  let counts = false;
  let stopped = false;
  let malformed = 0;
  const maxMalformed = options.maxMalformedRecords ?? 100;
  // Fields the file does not carry but the profile gives a constant for.
  const defaults = Object.entries(profile.defaults) as [PaymentField, string][];

  const onRecord = (record: string[], row: number): void => {
    if (stopped) return;
    if (!fieldsRead) {
      const header = mapHeader(record, profile, row);
      if ('issue' in header) {
        batch.push({ kind: 'issue', issue: header.issue });
        stopped = true;
        return;
      }
      const checked = ColumnChecks.of(profile, record, row);
      if (!(checked instanceof ColumnChecks)) {
        batch.push({ kind: 'issue', issue: checked });
        stopped = true;
        return;
      }
      checks = checked;
      counts = checked.counts;
      fieldsRead = [...header.columns.keys()];
      columnsRead = [...header.columns.values()];
      headerLength = record.length;
      return;
    }
    const fields = emptyFields();
    for (let i = 0; i < fieldsRead.length; i++) {
      const index = columnsRead[i]!;
      if (index < record.length) fields[fieldsRead[i]!] = new CsvField(record[index]!, row, index + 1);
    }
    if (defaults.length > 0)
      for (const [f, value] of defaults) if (fields[f] === undefined) fields[f] = { value, location: { row } };
    const line: RawPaymentLine = { lineNumber: row, location: { row }, fields };
    if (counts) line.block = '';
    const ruled = checks?.check(record, row, fields);
    if (ruled) line.issues = ruled;
    if (record.length !== headerLength) {
      const joined = bareCarriageReturns(record);
      const why =
        joined > 0
          ? `: the row holds ${joined + 1} lines joined, because they end with a bare carriage return (CR, the line end of classic Mac OS) while the file's first line ends with a line feed; save the file with one kind of line end (CRLF or LF)`
          : ' (a delimiter inside an unquoted value?)';
      (line.issues ??= []).push({
        code: IssueCode.CSV_COLUMN_COUNT,
        severity: 'error',
        location: { row },
        message: `row has ${record.length} fields; the header has ${headerLength}${why}`,
      });
    }
    batch.push({ kind: 'line', line });
  };

  const maxRecordSize = options.maxRecordSize ?? 65_536;
  // Lines before the first one csv-parse reads: its error's line counts from there.
  let lineOffset = 0;
  // Skipped records are reported after the records parsed before them are taken (file order).
  const skipped: ReaderItem[] = [];
  let failure: unknown;
  // Settles when csv-parse has finished or was destroyed (a fatal error): listened for from its start.
  let finished: Promise<void> = Promise.resolve();
  const startParser = (recordDelimiter: string | undefined, bom: boolean): Parser => {
    const started = parse({
      delimiter: profile.delimiter,
      quote: profile.quote,
      // After a splitter has read the file's start, a U+FEFF starting a later line is a character.
      bom,
      ...(recordDelimiter === undefined ? {} : { record_delimiter: recordDelimiter }),
      relax_column_count: true,
      // Blank lines come through as records so that counting records counts lines: csv-parse's
      // per-record `info` would tell the line too, but building it costs a sixth of the read.
      skip_empty_lines: false,
      // A quote inside an unquoted value (`12" pipe`) is kept as a character, as ERP exports
      // mean it; the character-set rule then reports it.
      relax_quotes: true,
      skip_records_with_error: true,
      max_record_size: maxRecordSize,
      on_skip: (err: CsvError | undefined) => {
        if (!err || stopped) return undefined;
        skipped.push({ kind: 'issue', issue: csvIssue(err, lineOffset) });
        // After a broken quote csv-parse may report a record per character, each message quoting
        // the growing field: stop early (throwing here makes the error fatal) so no file can make
        // the reader quadratic (found by the fuzzer, test/fixtures/regression/csv-nordic).
        if (++malformed >= maxMalformed) throw new TooManyMalformed(maxMalformed);
        return undefined;
      },
    });
    started.on('error', (error) => {
      failure ??= error;
    });
    finished = new Promise<void>((resolve) => {
      started.once('finish', resolve);
      started.once('close', resolve);
    });
    return started;
  };
  // csv-parse parses a chunk synchronously inside write(); its records wait in the stream's
  // buffer and are taken here in order, each with the line it starts on (a record spans one
  // line plus the line feeds inside its values: quoted, or bare ones in a file whose lines end
  // in CR or CRLF). One batch per chunk: no async step per record.
  let nextLine = 1;
  // Until the file's first quote character no value can hold a line end, and the lines are
  // split without csv-parse (quote-free-lines.ts). From the chunk with the first quote on, the
  // records are split by quoted-lines.ts while they have the shape csv-parse reads the same way
  // (double quotes only), and csv-parse reads from the first record of another shape. (A quote
  // beyond ASCII could be split between two chunks of bytes: then csv-parse reads the whole file.)
  let reader: QuoteFreeLines | QuotedLines | Parser =
    profile.quote.charCodeAt(0) >= 0x80 || options.splitQuoteFree === false
      ? startParser(undefined, true)
      : new QuoteFreeLines(maxRecordSize);
  const splitQuoted = profile.quote === '"' && options.splitQuoted !== false;
  const takeRecord = (record: string[], lineFeeds: number): void => {
    const row = nextLine;
    nextLine += 1 + lineFeeds;
    // Lines joined by bare CRs (mixed line ends) still count as lines, so later rows keep their numbers.
    if (fieldsRead && record.length !== headerLength) nextLine += bareCarriageReturns(record);
    if (isBlank(record)) return; // blank line, or only delimiters
    onRecord(record, row);
  };
  const takeQuoted = (record: string[], lineFeeds: number): boolean => {
    takeRecord(record, lineFeeds);
    return !stopped;
  };
  const take = (from: Parser): void => {
    for (let record = from.read() as string[] | null; record !== null; record = from.read() as string[] | null)
      takeRecord(record, lineBreaksIn(record));
    if (skipped.length > 0) batch.push(...skipped.splice(0));
  };
  const takeLines = (from: QuoteFreeLines, split: SplitLines): void => {
    for (const line of split.lines) {
      if (stopped) return;
      // A line feed inside a line: a bare one, in a file whose lines end in CR or CRLF.
      takeRecord(line.split(profile.delimiter), from.lineEnd === '\n' ? 0 : lineFeedsIn(line));
    }
    if (split.tooLong) failure ??= new RecordTooLarge(nextLine, maxRecordSize);
  };
  // csv-parse reads on from the record not yet taken, with the file's line end.
  const handOver = (from: QuoteFreeLines | QuotedLines): Parser => {
    lineOffset = from instanceof QuotedLines ? from.linesBefore : nextLine - 1;
    const parser = startParser(from.lineEnd, !from.started);
    const rest = from.rest();
    // In one write, as csv-parse would have had them: after a record over the limit it drops the
    // rest of the chunk it is parsing, so how the text is cut changes what it reports next.
    if (from instanceof QuotedLines)
      parser.write(Buffer.concat(rest.map((r) => (typeof r === 'string' ? Buffer.from(r) : r))));
    else for (const before of rest) parser.write(before);
    return parser;
  };
  const parseOn = async (parser: Parser, chunk?: string | Buffer): Promise<void> => {
    if (chunk !== undefined) parser.write(chunk);
    take(parser);
    // A fatal parse error (record too large) is emitted on a later tick: let it arrive.
    if (parser.destroyed || parser.writableNeedDrain) {
      await new Promise((r) => setImmediate(r));
      take(parser);
    }
  };

  try {
    for await (const chunk of text) {
      if (failure === undefined) {
        if (reader instanceof QuoteFreeLines && !chunk.includes(profile.quote)) takeLines(reader, reader.push(chunk));
        else {
          if (reader instanceof QuoteFreeLines)
            reader = splitQuoted
              ? new QuotedLines(reader, profile.delimiter, nextLine - 1, maxRecordSize)
              : handOver(reader);
          if (!(reader instanceof QuotedLines)) await parseOn(reader, chunk);
          else if (reader.push(chunk, takeQuoted)) await parseOn((reader = handOver(reader)));
        }
      }
      if (failure !== undefined && !stopped) {
        stopped = true;
        batch.push({ kind: 'issue', issue: csvIssue(failure, lineOffset) });
      }
      if (batch.length > 0) {
        yield batch;
        batch = [];
      }
      if (stopped) return;
    }
    if (reader instanceof QuoteFreeLines) takeLines(reader, reader.end());
    else if (reader instanceof QuotedLines && reader.end(takeQuoted)) reader = handOver(reader);
    if (!(reader instanceof QuoteFreeLines || reader instanceof QuotedLines)) {
      reader.end();
      await finished;
      take(reader);
    }
    if (failure !== undefined && !stopped) batch.push({ kind: 'issue', issue: csvIssue(failure, lineOffset) });
    else if (checks && !stopped)
      for (const declaration of checks.declarations()) batch.push({ kind: 'control', declaration });
    if (failure === undefined && !fieldsRead && !stopped)
      batch.push({
        kind: 'issue',
        issue: { code: IssueCode.FILE_EMPTY, severity: 'error', location: {}, message: 'the file has no header row' },
      });
    if (batch.length > 0) yield batch;
  } finally {
    if (!(reader instanceof QuoteFreeLines || reader instanceof QuotedLines)) reader.destroy();
  }
}

/**
 * A field whose location is built only when an issue asks for it: one object per field instead
 * of two, on millions of lines.
 */
class CsvField implements RawField {
  constructor(
    public value: string,
    private readonly row: number,
    private readonly column: number,
  ) {}

  get location(): IssueLocation {
    return { row: this.row, column: this.column };
  }
}

/** Only empty or blank values; the first non-empty value (almost always the first) decides. */
function isBlank(record: string[]): boolean {
  for (const v of record) if (v !== '' && v.trim() !== '') return false;
  return true;
}

function lineFeedsIn(value: string): number {
  let n = 0;
  for (let i = value.indexOf('\n'); i !== -1; i = value.indexOf('\n', i + 1)) n++;
  return n;
}

function lineBreaksIn(record: string[]): number {
  let n = 0;
  for (const value of record) n += lineFeedsIn(value);
  return n;
}

/** Carriage returns not followed by a line feed, in a record's values: lines csv-parse did not split. */
function bareCarriageReturns(record: string[]): number {
  let n = 0;
  for (const value of record) {
    for (let i = value.indexOf('\r'); i !== -1; i = value.indexOf('\r', i + 1)) if (value[i + 1] !== '\n') n++;
  }
  return n;
}

function mapHeader(
  record: string[],
  profile: CsvProfile,
  row: number,
): { columns: Map<PaymentField, number> } | { issue: Issue } {
  const index = new Map<string, number>();
  record.forEach((name, i) => {
    const key = name
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase();
    if (!index.has(key)) index.set(key, i);
  });
  const columns = new Map<PaymentField, number>();
  const missing: string[] = [];
  for (const [f, header] of Object.entries(profile.columns) as [PaymentField, string][]) {
    const i = index.get(header.trim().toLowerCase());
    if (i !== undefined) columns.set(f, i);
    else if (REQUIRED_FIELDS.includes(f) && profile.defaults[f] === undefined) missing.push(`"${header}" (${f})`);
  }
  if (missing.length > 0) {
    // Another separator is what the person must hear first: the columns are all there, only not
    // split where the profile splits them.
    const delimiter = otherDelimiter(record, profile);
    const lacks = `the header lacks required column(s) ${missing.join(', ')} of profile "${profile.name}"`;
    return {
      issue: {
        code: IssueCode.CSV_COLUMNS_MISSING,
        severity: 'error',
        location: { row },
        message: delimiter ? `${delimiter}; so ${lacks}` : `${lacks}; ${headerShown(record, columns.size)}`,
      },
    };
  }
  return { columns };
}

const DELIMITER_NAMES: Readonly<Record<string, string>> = {
  ',': 'a comma (,)',
  ';': 'a semicolon (;)',
  '\t': 'a tab',
  '|': 'a vertical bar (|)',
};

/**
 * When the header splits into the profile's columns at another delimiter than the profile's (a
 * spreadsheet saved with ";" for a profile of ","), that is the likely mistake: it is named, with
 * both ways out, rather than listing one long column the person does not recognise.
 */
function otherDelimiter(record: readonly string[], profile: CsvProfile): string | undefined {
  const line = record.join(profile.delimiter);
  const wanted = Object.values(profile.columns).map((h) => h.trim().toLowerCase());
  for (const d of Object.keys(DELIMITER_NAMES)) {
    if (d === profile.delimiter || !line.includes(d)) continue;
    const names = new Set(
      line.split(d).map((n) =>
        n
          .replace(/^\uFEFF/, '')
          .replace(/^"|"$/g, '')
          .trim()
          .toLowerCase(),
      ),
    );
    const found = wanted.filter((h) => names.has(h)).length;
    if (found >= Math.max(2, Math.ceil(wanted.length / 2)))
      return `this file uses ${DELIMITER_NAMES[d]!} between columns, but profile "${profile.name}" expects ${DELIMITER_NAMES[profile.delimiter] ?? JSON.stringify(profile.delimiter)}: save the file from the ERP or spreadsheet with ${DELIMITER_NAMES[profile.delimiter] ?? JSON.stringify(profile.delimiter)} between columns, or ask the operator for a profile with ${DELIMITER_NAMES[d]!}`;
  }
  return undefined;
}

/**
 * What the report says about the header it found. A first line without a single column of the
 * profile is probably not a payment file at all (a secret, a config file), so none of it is
 * quoted; otherwise its names are listed, each clipped.
 */
function headerShown(record: readonly string[], matched: number): string {
  if (matched === 0) return `none of its ${record.length} column(s) is one of the profile's (is this a payment file?)`;
  const names = record.slice(0, 12).map((name) => `"${name.length > 24 ? `${name.slice(0, 24)}…` : name}"`);
  return `it has ${record.length} column(s): ${names.join(', ')}${record.length > 12 ? ', …' : ''}`;
}

/** The issue of a csv-parse error, whose line counts from `lineOffset` + 1, or of our own. */
function csvIssue(error: unknown, lineOffset: number): Issue {
  if (error instanceof TooManyMalformed)
    return { code: IssueCode.CSV_MALFORMED, severity: 'error', location: {}, message: error.message };
  if (error instanceof RecordTooLarge)
    return {
      code: IssueCode.CSV_RECORD_TOO_LARGE,
      severity: 'error',
      location: { row: error.row },
      message: `record too large: ${error.message}`,
    };
  const e = error as CsvError & { lines?: number; code?: string };
  const row = typeof e.lines === 'number' ? e.lines + lineOffset : undefined;
  const tooLarge = e.code === 'CSV_MAX_RECORD_SIZE';
  return {
    code: tooLarge ? IssueCode.CSV_RECORD_TOO_LARGE : IssueCode.CSV_MALFORMED,
    severity: 'error',
    location: row === undefined ? {} : { row },
    message: `${tooLarge ? 'record too large' : 'malformed CSV'}: ${String(e.message ?? error)
      .replace(/^Invalid Record Length: /, '')
      // csv-parse's own message counts lines from where it started reading: the file's line instead.
      .replace(/\b(at|on) line (\d+)/, (_, word: string, n: string) => `${word} line ${Number(n) + lineOffset}`)}`,
  };
}
