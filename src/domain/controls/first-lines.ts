// The first line of each likely-duplicate key of one file, kept as a 32-bit hash of the key and
// the line's number in two typed arrays: 8 bytes a slot, 10–15 bytes a distinct key, whatever the
// key's length, and no JavaScript object a line. Kept beside the end-to-end id set, it is the
// other structure pickup keeps per line: a file that lists one invoice twice must pay it once
// (docs/decisions/0021-same-file-keys-as-hashes.md). A hash is not the key: two keys may share
// one, so the table keeps every first line whose hash matches and the caller compares their keys
// (SameFileLines in duplicate-holds.ts); a hash alone never makes a line a repeat.

/** Hash of a key; replaceable so tests can force collisions. */
export type KeyHash = (key: string) => number;

/** Grows by half when 80 % full, so 53–80 % full, as the end-to-end id set's table. */
const MAX_LOAD = 0.8;
const GROWTH = 1.5;
/** Lines are kept plus one, so that 0 marks an empty slot and line 0 is still a line. */
const EMPTY = 0;
const MAX_LINE = 0xffff_fffe;

export class FirstLines {
  private hashes: Uint32Array;
  private lines: Uint32Array;
  private capacity: number;
  private count = 0;
  private readonly hash: KeyHash;

  constructor(options: { initialSlots?: number; hash?: KeyHash } = {}) {
    this.capacity = Math.max(Math.ceil(options.initialSlots ?? 1024), 2);
    this.hashes = new Uint32Array(this.capacity);
    this.lines = new Uint32Array(this.capacity);
    this.hash = options.hash ?? fnv1a;
  }

  /** Lines kept. */
  get size(): number {
    return this.count;
  }

  /** Bytes of the two arrays (what the table costs, beside a small object). */
  get byteLength(): number {
    return this.hashes.byteLength + this.lines.byteLength;
  }

  hashOf(key: string): number {
    return this.hash(key) >>> 0;
  }

  /** The lines kept with `hash`, in file order (the keys behind them may differ). */
  linesWith(hash: number): number[] {
    const found: number[] = [];
    const { hashes, lines } = this;
    for (let slot = this.home(hash); lines[slot] !== EMPTY; slot = slot + 1 === this.capacity ? 0 : slot + 1)
      if (hashes[slot] === hash) found.push(lines[slot]! - 1);
    return found.length > 1 ? found.sort((a, b) => a - b) : found;
  }

  /** Keeps `line` as the first line of a key with `hash` (its caller knows no kept line has its key). */
  add(hash: number, line: number): void {
    if (!Number.isInteger(line) || line < 0 || line > MAX_LINE)
      throw new RangeError(`line ${line} is not a whole number from 0 to ${MAX_LINE}`);
    if (this.count + 1 > this.capacity * MAX_LOAD) this.grow();
    this.place(hash, line + 1);
    this.count++;
  }

  /** The first slot to try: the hash scaled to the table (any size, not only powers of two). */
  private home(hash: number): number {
    return Math.floor((hash / 0x1_0000_0000) * this.capacity);
  }

  private place(hash: number, stored: number): void {
    let slot = this.home(hash);
    while (this.lines[slot] !== EMPTY) slot = slot + 1 === this.capacity ? 0 : slot + 1;
    this.hashes[slot] = hash;
    this.lines[slot] = stored;
  }

  /** A bigger table, every line placed anew by its kept hash. */
  private grow(): void {
    const { hashes, lines } = this;
    this.capacity = Math.ceil(this.capacity * GROWTH);
    this.hashes = new Uint32Array(this.capacity);
    this.lines = new Uint32Array(this.capacity);
    for (let i = 0; i < lines.length; i++) if (lines[i] !== EMPTY) this.place(hashes[i]!, lines[i]!);
  }
}

/** FNV-1a over the UTF-16 units, with a final mix so that the high bits (the slot) depend on all of them. */
const fnv1a: KeyHash = (key) => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
