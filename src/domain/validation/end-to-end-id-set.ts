// The end-to-end ids of one file, each with the line that first used it, kept compactly: the
// duplicate check (E2E_DUPLICATE_IN_FILE) needs every id of the file, the one thing intake keeps
// that grows with the file. A Map<string, number> of 16-character ids costs 61–70 bytes an id (a
// string object, a table entry); here the id's UTF-8 bytes and its line go into pages of bytes,
// found through an open-addressing hash table of a tag byte and an offset per slot: about 30 bytes
// an id (measured in docs/performance.md), and no JavaScript string is kept, so no parser slice
// can keep a parser's input chunk alive.
//
// Entry layout in a page: the id's byte length (LEB128), the id's UTF-8 bytes, the line
// (4 bytes, little-endian). Ids are equal when their UTF-8 bytes are (so "é" composed and "é"
// decomposed are two ids, as in a Map; a lone surrogate becomes U+FFFD, as in TextEncoder).

/** Hash of bytes[start, end); replaceable so tests can force collisions. */
export type ByteHash = (bytes: Uint8Array, start: number, end: number) => number;

export interface EndToEndIdSetOptions {
  /** Slots in the hash table at first (default 1,024). */
  initialSlots?: number;
  /** Bytes of the first page at first (default 16 KiB; it doubles up to a page's size). */
  initialBytes?: number;
  hash?: ByteHash;
}

/**
 * The table grows by half when 80 % full, so it is 53–80 % full: 6–9 bytes of slots (a tag byte
 * and a 4-byte offset) per id. (Doubling at 70 % would be 7–14 bytes; linear probing stays short
 * at these loads because a probe compares the tag, 8 bits of the hash, before it reads an offset
 * or touches an id's bytes: one false match in 255.)
 */
const MAX_LOAD = 0.8;
const GROWTH = 1.5;
const EMPTY = 0;
/** Ids go into pages of 1 MiB, so growth adds a page instead of copying the ids into a buffer twice as large. */
const PAGE_BITS = 20;
const PAGE = 1 << PAGE_BITS;
/** Offsets (page × PAGE + position) are kept in a Uint32Array: at most 4095 pages keep them below 2³². */
const MAX_PAGES = 4095;

export class EndToEndIdSet {
  private readonly pages: Uint8Array[];
  /** The page being filled, its index and the first free byte in it. */
  private page: Uint8Array;
  private pageIndex = 0;
  private used = 0;
  /**
   * Per slot, a tag of the id's hash (1–255; 0: empty) and, apart, the entry's offset. A probe
   * reads only the tags (a byte a slot, so the part a file's ids touch stays in the processor's
   * caches far longer than wider slots would) and an offset only when a tag matches.
   */
  private tags: Uint8Array;
  private offsets: Uint32Array;
  private capacity: number;
  private count = 0;
  private readonly hash: ByteHash;
  /** Where the id last staged (written after the page's last entry, not yet taken in) begins and ends. */
  private stagedStart = 0;
  private stagedEnd = 0;

  constructor(options: EndToEndIdSetOptions = {}) {
    this.capacity = Math.max(Math.ceil(options.initialSlots ?? 1024), 2);
    this.tags = new Uint8Array(this.capacity);
    this.offsets = new Uint32Array(this.capacity);
    this.page = new Uint8Array(Math.min(Math.max(options.initialBytes ?? 16 * 1024, 64), PAGE));
    this.pages = [this.page];
    this.hash = options.hash ?? fnv1a;
  }

  /** Distinct ids kept. */
  get size(): number {
    return this.count;
  }

  /** Bytes kept in the pages and the table (what the set costs, beside a small object). */
  get byteLength(): number {
    let bytes = this.tags.byteLength + this.offsets.byteLength;
    for (const page of this.pages) bytes += page.byteLength;
    return bytes;
  }

  /** The line kept with `id`, or undefined when the set does not hold it. */
  get(id: string): number | undefined {
    const found = this.find(this.stage(id));
    return found < 0 ? undefined : this.lineAt(found);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /**
   * Adds `id` with `line` unless the set holds it already: then returns the line kept with it
   * (and keeps that one), else undefined. One encoding and one probe for both.
   */
  addIfAbsent(id: string, line: number): number | undefined {
    if (!Number.isInteger(line) || line < 0 || line > 0xffff_ffff)
      throw new RangeError(`line ${line} is not a whole number from 0 to 4294967295`);
    const hash = this.stage(id);
    const found = this.find(hash);
    if (found >= 0) return this.lineAt(found);
    // The staged bytes become the entry: the line goes after them, and the page's end moves on.
    const offset = this.pageIndex * PAGE + this.used;
    writeUint32(this.page, this.stagedEnd, line);
    this.used = this.stagedEnd + 4;
    if (this.count + 1 > this.capacity * MAX_LOAD) this.growTable();
    this.place(hash, offset);
    this.count++;
    return undefined;
  }

  /**
   * Makes room in the table for `ids` ids in all (an estimate of a file's ids, from the part read
   * so far): the table grows now, while it holds few, to the size that growth one id at a time
   * would reach, instead of later, when growing copies a large table and old and new are kept at
   * once. Adding more ids than expected grows the table as usual.
   */
  expect(ids: number): void {
    let capacity = this.capacity;
    while (ids > capacity * MAX_LOAD) capacity = Math.ceil(capacity * GROWTH);
    if (capacity > this.capacity) this.growTable(capacity);
  }

  /**
   * Writes `id` as an entry after the page's last one without taking it in yet (the length
   * prefix and the UTF-8 bytes, on a new page when it does not fit); returns its hash.
   */
  private stage(id: string): number {
    const length = utf8Length(id);
    const bytes = lengthSize(length) + length + 4;
    // Readers cap a record at 65,536 characters (at most 192 KiB of UTF-8), so this is a caller's bug.
    if (bytes > PAGE)
      throw new RangeError(`an end-to-end id of ${length} bytes is longer than the id set holds (1 MiB)`);
    this.reserve(bytes);
    this.stagedStart = writeLength(this.page, this.used, length);
    this.stagedEnd = writeUtf8(this.page, this.stagedStart, id, length === id.length);
    return this.hash(this.page, this.stagedStart, this.stagedEnd) >>> 0;
  }

  /** The offset of the entry with the staged bytes, or -1. */
  private find(hash: number): number {
    const tags = this.tags;
    const tag = tagOf(hash);
    for (let slot = this.home(hash); ; slot = slot + 1 === this.capacity ? 0 : slot + 1) {
      const stored = tags[slot]!;
      if (stored === EMPTY) return -1;
      if (stored === tag && this.sameBytes(this.offsets[slot]!)) return this.offsets[slot]!;
    }
  }

  /** The first slot to try: the hash scaled to the table (any size, not only powers of two). */
  private home(hash: number): number {
    return Math.floor((hash / 0x1_0000_0000) * this.capacity);
  }

  private sameBytes(offset: number): boolean {
    const page = this.pages[offset >>> PAGE_BITS]!;
    const staged = this.page;
    const start = this.stagedStart;
    const length = this.stagedEnd - start;
    let from = skipLength(page, offset & (PAGE - 1), length);
    if (from < 0) return false;
    for (let i = start; i < start + length; i++, from++) if (page[from] !== staged[i]) return false;
    return true;
  }

  private lineAt(offset: number): number {
    const page = this.pages[offset >>> PAGE_BITS]!;
    const at = offset & (PAGE - 1);
    const length = readLength(page, at);
    return readUint32(page, at + lengthSize(length) + length);
  }

  private place(hash: number, offset: number): void {
    const tags = this.tags;
    let slot = this.home(hash);
    while (tags[slot] !== EMPTY) slot = slot + 1 === this.capacity ? 0 : slot + 1;
    tags[slot] = tagOf(hash);
    this.offsets[slot] = offset;
  }

  /** A bigger table, every entry placed anew (its hash computed again from its bytes). */
  private growTable(capacity = Math.ceil(this.capacity * GROWTH)): void {
    const { tags, offsets } = this;
    this.capacity = capacity;
    this.tags = new Uint8Array(capacity);
    this.offsets = new Uint32Array(capacity);
    for (let i = 0; i < tags.length; i++) if (tags[i] !== EMPTY) this.place(this.hashAt(offsets[i]!), offsets[i]!);
  }

  private hashAt(offset: number): number {
    const page = this.pages[offset >>> PAGE_BITS]!;
    const at = offset & (PAGE - 1);
    const length = readLength(page, at);
    const start = at + lengthSize(length);
    return this.hash(page, start, start + length) >>> 0;
  }

  /** Room for an entry of `bytes` after the page's last one: the first page doubles up to a page's size, then pages are added. */
  private reserve(bytes: number): void {
    if (this.used + bytes <= this.page.length) return;
    if (this.pageIndex === 0 && this.page.length < PAGE) {
      let size = this.page.length * 2;
      while (size < this.used + bytes) size *= 2;
      const grown = new Uint8Array(Math.min(size, PAGE));
      grown.set(this.page.subarray(0, this.used));
      this.pages[0] = this.page = grown;
      if (this.used + bytes <= this.page.length) return;
    }
    if (this.pages.length >= MAX_PAGES) throw new RangeError('the end-to-end id set is full (4 GiB of ids)');
    this.page = new Uint8Array(PAGE);
    this.pages.push(this.page);
    this.pageIndex++;
    this.used = 0;
  }
}

/** The hash's low byte as a tag, never 0 (an empty slot). */
function tagOf(hash: number): number {
  return hash & 0xff || 1;
}

/** FNV-1a over the bytes, with a final mix so that the low bits (the slot) depend on all of them. */
const fnv1a: ByteHash = (bytes, start, end) => {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** The UTF-8 byte length of a string (a lone surrogate counts as U+FFFD, 3 bytes). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (isPair(s, i)) {
      n += 2; // four bytes for two units
      i++;
    } else n += 2;
  }
  return n;
}

function isPair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** Writes the UTF-8 bytes of `s` at `at`; returns the end. */
function writeUtf8(bytes: Uint8Array, at: number, s: string, ascii: boolean): number {
  if (ascii) {
    for (let i = 0; i < s.length; i++) bytes[at + i] = s.charCodeAt(i);
    return at + s.length;
  }
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) bytes[at++] = c;
    else if (c < 0x800) {
      bytes[at++] = 0xc0 | (c >> 6);
      bytes[at++] = 0x80 | (c & 0x3f);
    } else if (isPair(s, i)) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      bytes[at++] = 0xf0 | (c >> 18);
      bytes[at++] = 0x80 | ((c >> 12) & 0x3f);
      bytes[at++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[at++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      bytes[at++] = 0xe0 | (c >> 12);
      bytes[at++] = 0x80 | ((c >> 6) & 0x3f);
      bytes[at++] = 0x80 | (c & 0x3f);
    }
  }
  return at;
}

/** LEB128: seven bits a byte, low bits first; returns the offset after it. */
function writeLength(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  bytes[at++] = value;
  return at;
}

function readLength(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[at++]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return value;
  }
}

function lengthSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

/** The offset of the id's bytes in the entry at `at` when its length is `length`, else -1. */
function skipLength(bytes: Uint8Array, at: number, length: number): number {
  // The common case, an id shorter than 128 bytes: one byte to compare.
  if (length < 0x80) return bytes[at] === length ? at + 1 : -1;
  return readLength(bytes, at) === length ? at + lengthSize(length) : -1;
}

function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff;
  bytes[at + 1] = (value >>> 8) & 0xff;
  bytes[at + 2] = (value >>> 16) & 0xff;
  bytes[at + 3] = value >>> 24;
}

function readUint32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}
