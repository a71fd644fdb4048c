// The records of a CSV file from its first quote character on, split without csv-parse as long as
// every record is one csv-parse reads the same way: a value either unquoted (any character but the
// delimiter and the line end; a quote inside it is a character, as with `relax_quotes`) or quoted
// from its first character (`""` a quote; the delimiter and line breaks inside it are characters)
// and closed right before a delimiter, the line end or the end of the file (RFC 4180). csv-parse
// was about three fifths of the instructions of validating a file whose values are all quoted
// (docs/decisions/0017). At the first record of any other shape (a closing quote followed by
// another character, a quote never closed) or one that could reach the record limit, the reader
// (read-csv.ts) hands the rest of the file to csv-parse, which reports it as before. The file's
// line end is found as csv-parse finds it: its first line break outside quotes.
import { ChunkText, lineEndOf } from './quote-free-lines.js';

/** Takes one record and the line feeds inside its values; false: stop splitting (the reading ends). */
export type TakeRecord = (record: string[], lineFeeds: number) => boolean;

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** An index past any text: "none further" in the caches below. */
const NONE = Number.MAX_SAFE_INTEGER;
/** What a record's scan found other than its end: it continues in the next chunk, or csv-parse must read it. */
const MORE = -1;
const PARSER = -2;

function indexOr(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? NONE : at;
}

export class QuotedLines extends ChunkText {
  /**
   * csv-parse's count of the lines before the next record, had it read the file from its start:
   * it counts every CR and LF, a CRLF line end once. Its error on a record after the hand-over
   * names a line counted from there.
   */
  linesBefore = 0;
  private readonly delimiter: number;
  private readonly delimiterText: string;
  /** The line feeds inside the values of the record last scanned. */
  private lineFeeds = 0;
  /** The text being split, and the next delimiter, quote, LF, CR and line end at or after the scan. */
  private t = '';
  private nextDelimiter = -1;
  private nextQuote = -1;
  private nextLf = -1;
  private nextCr = -1;
  private nextEnd = -1;
  /** The next LF and CR not yet counted in a record (the scan's own are past them by then). */
  private countedLf = -1;
  private countedCr = -1;

  /** Continues where `from` stopped, `linesBefore` lines into the file. */
  constructor(from: ChunkText, delimiter: string, linesBefore: number, maxRecordSize: number) {
    super(maxRecordSize);
    this.continueFrom(from);
    this.delimiter = delimiter.charCodeAt(0);
    this.delimiterText = delimiter;
    this.linesBefore = linesBefore;
  }

  /** Splits the records the chunk completes; true: from the record not taken on, csv-parse must read (rest()). */
  push(chunk: string | Buffer, take: TakeRecord): boolean {
    const complete = this.completeText(chunk);
    if (complete === undefined) return this.pendingLength * 3 > this.maxRecordSize;
    return this.split(complete, false, take);
  }

  /** The last record, when the file does not end with a line break; true: csv-parse must read it. */
  end(take: TakeRecord): boolean {
    const rest = this.pendingText();
    return rest === '' ? false : this.split(rest, true, take);
  }

  private split(text: string, final: boolean, take: TakeRecord): boolean {
    text = this.withoutBom(text);
    this.t = text;
    this.nextDelimiter = this.nextQuote = this.nextLf = this.nextCr = this.nextEnd = -1;
    this.countedLf = this.countedCr = -1;
    if (this.lineEnd === undefined) {
      const at = this.firstLineBreak(final);
      this.lineEnd = at >= 0 ? lineEndOf(text.slice(at), final) : undefined;
      if (this.lineEnd === undefined) return this.keep(0, at === PARSER);
    }
    let at = 0;
    while (at < text.length) {
      const record: string[] = [];
      const next = this.record(at, final, record);
      if (next < 0) return this.keep(at, next === PARSER);
      if (!take(record, this.lineFeeds)) {
        this.t = '';
        return false;
      }
      at = next;
    }
    this.t = '';
    return false;
  }

  /**
   * Keeps the text from `at` on for the next chunk or for csv-parse (true: csv-parse reads on),
   * which also takes any record that could reach the record limit (it counts bytes).
   */
  private keep(at: number, parser: boolean): boolean {
    this.text = this.t.slice(at);
    this.t = '';
    return parser || this.pendingLength * 3 > this.maxRecordSize;
  }

  /**
   * Scans the record that starts at `start` into `record`; the index after its line end, or MORE,
   * or PARSER. A record whose characters could be more bytes than the limit is left to csv-parse.
   */
  private record(start: number, final: boolean, record: string[]): number {
    const t = this.t;
    const n = t.length;
    const lineEnd = this.lineEnd!;
    let at = start;
    for (;;) {
      if (t.charCodeAt(at) === QUOTE) {
        let from = at + 1;
        let value = '';
        for (;;) {
          const quote = this.quote(from);
          if (quote >= n) return final ? PARSER : MORE;
          if (quote + 1 === n && !final) return MORE;
          if (t.charCodeAt(quote + 1) === QUOTE) {
            value += t.slice(from, quote + 1);
            from = quote + 2;
          } else {
            value += t.slice(from, quote);
            at = quote + 1;
            break;
          }
        }
        record.push(value);
        if (at === n) return final ? this.ended(start, n, n) : MORE;
        if (t.charCodeAt(at) === this.delimiter) {
          at++;
          continue;
        }
        if (t.startsWith(lineEnd, at)) return this.ended(start, at, at + lineEnd.length);
        // A CR ending the text may be the start of the CRLF that closes the record.
        return !final && at + 1 === n && lineEnd.length === 2 && t.charCodeAt(at) === CR ? MORE : PARSER;
      }
      const end = this.lineEndAt(at);
      const delimiter = this.delimiterAt(at);
      if (delimiter < end && delimiter < n) {
        record.push(t.slice(at, delimiter));
        at = delimiter + 1;
      } else if (end < n) {
        record.push(t.slice(at, end));
        return this.ended(start, end, end + lineEnd.length);
      } else if (final) {
        record.push(t.slice(at));
        return this.ended(start, n, n);
      } else return MORE;
    }
  }

  /**
   * A record over [start, end), its line end up to `next`: its line feeds and csv-parse's lines
   * counted; PARSER when it is too long.
   */
  private ended(start: number, end: number, next: number): number {
    if ((next - start) * 3 > this.maxRecordSize) return PARSER;
    let lineFeeds = 0;
    for (; this.countedLf < end; this.countedLf = indexOr(this.t, '\n', this.countedLf + 1))
      if (this.countedLf >= start) lineFeeds++;
    let carriageReturns = 0;
    for (; this.countedCr < end; this.countedCr = indexOr(this.t, '\r', this.countedCr + 1))
      if (this.countedCr >= start) carriageReturns++;
    this.lineFeeds = lineFeeds;
    this.linesBefore += lineFeeds + carriageReturns + (next > end ? 1 : 0);
    return next;
  }

  private quote(from: number): number {
    if (this.nextQuote < from) this.nextQuote = indexOr(this.t, '"', from);
    return this.nextQuote;
  }

  private delimiterAt(from: number): number {
    if (this.nextDelimiter < from) this.nextDelimiter = indexOr(this.t, this.delimiterText, from);
    return this.nextDelimiter;
  }

  private lf(from: number): number {
    if (this.nextLf < from) this.nextLf = indexOr(this.t, '\n', from);
    return this.nextLf;
  }

  private cr(from: number): number {
    if (this.nextCr < from) this.nextCr = indexOr(this.t, '\r', from);
    return this.nextCr;
  }

  /** The next line end at or after `from`. */
  private lineEndAt(from: number): number {
    if (this.lineEnd === '\n') return this.lf(from);
    if (this.lineEnd === '\r') return this.cr(from);
    if (this.nextEnd < from) this.nextEnd = indexOr(this.t, '\r\n', from);
    return this.nextEnd;
  }

  /**
   * The first CR or LF outside quotes, where csv-parse finds the file's line end; MORE when the
   * text may not hold it yet, PARSER when a record before it has another shape or there is none.
   */
  private firstLineBreak(final: boolean): number {
    const t = this.t;
    const n = t.length;
    let at = 0;
    for (;;) {
      if (t.charCodeAt(at) === QUOTE) {
        let quote = t.indexOf('"', at + 1);
        while (quote >= 0 && t.charCodeAt(quote + 1) === QUOTE) quote = t.indexOf('"', quote + 2);
        if (quote < 0) return final ? PARSER : MORE;
        at = quote + 1;
        if (at === n) return final ? PARSER : MORE;
        const c = t.charCodeAt(at);
        if (c === this.delimiter) at++;
        else return c === LF || c === CR ? at : PARSER;
        continue;
      }
      let stop = at;
      while (stop < n && !this.breaksAt(t.charCodeAt(stop))) stop++;
      if (stop === n) return final ? PARSER : MORE;
      if (t.charCodeAt(stop) !== this.delimiter) return stop;
      at = stop + 1;
    }
  }

  private breaksAt(c: number): boolean {
    return c === this.delimiter || c === LF || c === CR;
  }
}
