// Signs, in the raw bytes of a file, that it is in another encoding than the one it is read
// with: Windows-1252 bytes read as UTF-8 (bytes that are not valid UTF-8: "M�ller"), UTF-8 read
// as Windows-1252 or ISO-8859-1 (valid multi-byte UTF-8: "Beløp" shows as "BelÃ¸p"), or UTF-16
// without a byte order mark. The sniffer passes the chunks through and costs one isUtf8 per
// chunk; the lines are searched for the damage only once a sign was seen.
import { isUtf8 } from 'node:buffer';
import { iconvLite } from './iconv.js';

export type SeemsEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export interface EncodingSign {
  /** The encoding the file seems to be in; undefined for valid UTF-8 that holds U+FFFD (characters lost before). */
  seems: SeemsEncoding | undefined;
  /** A word of the file as read, and as it reads in the encoding it seems to be in. */
  asRead?: string;
  asMeant?: string;
  /** Line of the file (1-based) where the word is. */
  row?: number;
}

const SINGLE_BYTE = new Set(['iso-8859-1', 'latin1', 'windows-1252', 'cp1252']);
const REPLACEMENT_UTF8 = Buffer.from('\uFFFD', 'utf8');

export class EncodingSniffer {
  /** Set once a sign was seen: from then on, lines are searched for the damage. */
  sign: EncodingSign | undefined;
  private singleByte: boolean;
  private readonly utf8: boolean;
  private first = true;
  private lines = 0;
  private carry: Buffer | undefined;

  constructor(readonly encoding: string) {
    this.utf8 = encoding === 'utf-8' || encoding === 'utf8';
    this.singleByte = SINGLE_BYTE.has(encoding);
  }

  async *watch(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of chunks) {
      if (!this.sign && (this.utf8 || this.singleByte)) this.inspect(chunk);
      yield chunk;
    }
  }

  private inspect(chunk: Buffer): void {
    if (this.first) {
      this.first = false;
      const wide = utf16Without(chunk);
      if (wide) {
        this.sign = { seems: wide };
        return;
      }
    }
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = completeLength(bytes);
    const whole = cut === bytes.length ? bytes : bytes.subarray(0, cut);
    this.carry = cut === bytes.length ? undefined : Buffer.from(bytes.subarray(cut));
    if (this.utf8) {
      if (isUtf8(whole)) {
        if (whole.includes(REPLACEMENT_UTF8)) this.sign = { seems: undefined };
        return;
      }
      const at = firstInvalidUtf8(whole);
      this.sign = { seems: 'windows-1252', ...this.word(whole, at, 'utf-8', 'windows-1252') };
      return;
    }
    // Single-byte encodings: valid UTF-8 with a multi-byte sequence is almost certainly UTF-8.
    if (!isUtf8(whole)) {
      // Not UTF-8 somewhere: then it cannot be UTF-8 read as a single-byte encoding; stop looking.
      this.carry = undefined;
      this.singleByte = false;
      return;
    }
    const at = firstHighByte(whole);
    if (at < 0) {
      this.lines += countLines(whole, whole.length);
      return;
    }
    this.sign = { seems: 'utf-8', ...this.word(whole, at, this.encoding, 'utf-8') };
  }

  private word(bytes: Buffer, at: number, read: string, meant: string): Omit<EncodingSign, 'seems'> {
    let start = at;
    while (start > 0 && at - start < 24 && !isBreak(bytes[start - 1] ?? 0x20)) start--;
    let end = at;
    while (end < bytes.length && end - at < 24 && !isBreak(bytes[end] ?? 0x20)) end++;
    const slice = bytes.subarray(start, end);
    return {
      asRead: iconvLite().decode(slice, read),
      asMeant: iconvLite().decode(slice, meant),
      row: this.lines + countLines(bytes, start) + 1,
    };
  }
}

/** The name people know an encoding by, and the profile value that reads it. */
export function encodingName(encoding: string): string {
  const names: Record<string, string> = {
    'utf-8': 'UTF-8',
    'windows-1252': 'Windows-1252 (or ISO-8859-1)',
    'iso-8859-1': 'ISO-8859-1',
    'utf-16le': 'UTF-16LE without a byte order mark',
    'utf-16be': 'UTF-16BE without a byte order mark',
  };
  return names[encoding] ?? encoding;
}

/** "BelÃ¸p" as read is "Beløp" as UTF-8: true when a field's text is UTF-8 bytes read as a single-byte encoding. */
export function looksLikeUtf8ReadAs(value: string, encoding: string): string | undefined {
  let high = false;
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) >= 0x80) high = true;
  if (!high) return undefined;
  const bytes = iconvLite().encode(value, encoding);
  return isUtf8(bytes) ? bytes.toString('utf8') : undefined;
}

function isBreak(b: number): boolean {
  return b <= 0x20 || b === 0x2c || b === 0x3b || b === 0x22 || b === 0x3c || b === 0x3e;
}

function countLines(bytes: Buffer, end: number): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < end; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

function firstHighByte(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80) return i;
  return -1;
}

/** The length of the chunk without a multi-byte UTF-8 sequence cut off at its end. */
function completeLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back] ?? 0;
    if (b < 0x80) return n;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return back < need ? n - back : n;
    }
  }
  return n;
}

/** Offset of the first byte that does not start a valid UTF-8 sequence (the decoder's view). */
function firstInvalidUtf8(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  const bad = text.indexOf('\uFFFD');
  return bad < 0 ? 0 : Buffer.byteLength(text.slice(0, bad), 'utf8');
}

/** Text in UTF-16 without a BOM: many NUL bytes on one side of the pairs. */
function utf16Without(head: Buffer): SeemsEncoding | undefined {
  const n = Math.min(head.length, 512) & ~1;
  if (n < 8) return undefined;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  if (odd > n / 4 && even === 0) return 'utf-16le';
  if (even > n / 4 && odd === 0) return 'utf-16be';
  return undefined;
}
