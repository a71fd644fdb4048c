// The lines of a CSV file up to its first quote character, split without a CSV parser. Where no
// value is quoted, a record is a line and its values are the line split at the delimiter: exactly
// what csv-parse makes of it (relax_column_count, blank lines kept), at a fraction of the cost —
// csv-parse was three fifths of the CPU of validating a quote-free million-line file
// (docs/performance.md, intake-csv). The reader (read-csv.ts) hands the rest of the file to
// csv-parse at the first chunk with a quote character, with the bytes not yet split.
//
// Line ends are found as csv-parse finds them: the first line break of the file decides, CRLF, LF
// or a bare CR (classic Mac OS); any other kind later in the file stays inside a value, as there.

export type LineEnd = '\r\n' | '\n' | '\r';

/**
 * What a chunk gave: its complete lines; with `tooLong`, the line after them is longer than the
 * record limit (the reading ends there).
 */
export interface SplitLines {
  lines: string[];
  tooLong?: true;
}

const NONE: SplitLines = { lines: [] };
const TOO_LONG: SplitLines = { lines: [], tooLong: true };

const LF = 0x0a;
const CR = 0x0d;

/**
 * A file's chunks as text whole lines at a time: a Buffer chunk (UTF-8) is decoded up to its last
 * line break byte, the bytes after it kept for the next chunk. The splitters below (and the quoted
 * one, quoted-lines.ts) split that text.
 */
export abstract class ChunkText {
  /** The file's line end, once its first line break has been seen. */
  lineEnd: LineEnd | undefined;
  /** The decoded start of the line not yet ended. */
  protected text = '';
  /** Bytes after the chunk's last line break: the line's rest, perhaps ending inside a character. */
  protected bytes: Buffer = Buffer.alloc(0);
  /** Whether the file's first text was split (its byte order mark, if any, then dropped). */
  started = false;

  constructor(protected readonly maxRecordSize: number) {}

  /** Takes over what `from` has read but not split (the file's line end, text and bytes). */
  protected continueFrom(from: ChunkText): void {
    this.lineEnd = from.lineEnd;
    this.started = from.started;
    this.text = from.text;
    this.bytes = from.bytes;
    from.text = '';
    from.bytes = Buffer.alloc(0);
  }

  /**
   * The text the chunk completes up to its last line break, with what was kept before it;
   * undefined when the chunk has no line break (it is kept).
   */
  protected completeText(chunk: string | Buffer): string | undefined {
    if (typeof chunk === 'string') return this.pendingText() + chunk;
    const last = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR));
    if (last < 0) {
      this.bytes = this.bytes.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.bytes, chunk]);
      return undefined;
    }
    // A line break byte is never inside a UTF-8 sequence: what precedes it decodes whole. The
    // bytes kept from the last chunk are joined to this chunk's first line only, not copied with it.
    let from = 0;
    let head = '';
    if (this.bytes.length > 0) {
      const lf = chunk.indexOf(LF);
      const cr = chunk.indexOf(CR);
      from = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      head = Buffer.concat([this.bytes, chunk.subarray(0, from)]).toString();
    }
    const complete = this.text + head + chunk.toString('utf8', from, last + 1);
    this.bytes = Buffer.from(chunk.subarray(last + 1));
    this.text = '';
    return complete;
  }

  /** Characters and bytes read and not yet split. */
  protected get pendingLength(): number {
    return this.text.length + this.bytes.length;
  }

  /** What is read but not yet split, for the parser that takes over: text, then bytes. */
  rest(): (string | Buffer)[] {
    const out: (string | Buffer)[] = [];
    if (this.text !== '') out.push(this.text);
    if (this.bytes.length > 0) out.push(this.bytes);
    this.text = '';
    this.bytes = Buffer.alloc(0);
    return out;
  }

  protected pendingText(): string {
    const text = this.text + (this.bytes.length > 0 ? this.bytes.toString() : '');
    this.text = '';
    this.bytes = Buffer.alloc(0);
    return text;
  }

  /** The file's first text: a byte order mark is not part of its first value (csv-parse's `bom`). */
  protected withoutBom(text: string): string {
    if (this.started) return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

export class QuoteFreeLines extends ChunkText {
  /** The lines that the chunk completes (a Buffer is UTF-8). */
  push(chunk: string | Buffer): SplitLines {
    const complete = this.completeText(chunk);
    if (complete === undefined) return this.pendingLength > this.maxRecordSize ? TOO_LONG : NONE;
    return this.split(complete, false);
  }

  /** The last line, when the file does not end with a line break. */
  end(): SplitLines {
    const rest = this.pendingText();
    return rest === '' ? NONE : this.split(rest, true);
  }

  /** Splits `text` into lines; the last, not ended unless `final`, waits for the next chunk. */
  private split(text: string, final: boolean): SplitLines {
    text = this.withoutBom(text);
    this.lineEnd ??= lineEndOf(text, final);
    if (this.lineEnd === undefined) {
      if (final) return text.length > this.maxRecordSize ? TOO_LONG : { lines: [text] };
      this.text = text;
      return text.length > this.maxRecordSize ? TOO_LONG : NONE;
    }
    const lines = text.split(this.lineEnd);
    const open = lines.pop()!;
    if (final && open !== '') lines.push(open);
    else this.text = open;
    const long = lines.findIndex((line) => line.length > this.maxRecordSize);
    if (long >= 0) return { lines: lines.slice(0, long), tooLong: true };
    return this.text.length > this.maxRecordSize ? { lines, tooLong: true } : { lines };
  }
}

/** The first line break's kind; undefined while a CR ends the text and the next chunk may bring its LF. */
export function lineEndOf(text: string, final: boolean): LineEnd | undefined {
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (cr < 0 || (lf >= 0 && lf < cr)) return lf < 0 ? undefined : '\n';
  if (cr + 1 < text.length) return text[cr + 1] === '\n' ? '\r\n' : '\r';
  return final ? '\r' : undefined;
}
