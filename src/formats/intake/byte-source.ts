// The bytes of an input file, read once: hashed (SHA-256, the file's identity in the ledger)
// as they stream past, and decoded to text with iconv-lite. When a reader stops early (a
// refused DTD, a fatal syntax error) the rest is still read for the hash, never kept.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { iconvLite } from './iconv.js';
import { SettleError } from '../../domain/errors.js';

export class ByteSource {
  private readonly hash: Hash = createHash('sha256');
  private readonly iterator: AsyncIterator<Buffer>;
  private done = false;
  /** Bytes handed out by chunks() so far. */
  bytesRead = 0;

  /** `hashed: false` when the caller already knows the file's hash (pickup hashes while downloading). */
  constructor(
    path: string,
    private readonly hashed = true,
  ) {
    this.iterator = (createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>)[
      Symbol.asyncIterator
    ]();
  }

  /** Raw chunks; stopping the loop early does not close the file, so drain() can finish the hash. */
  async *chunks(): AsyncGenerator<Buffer> {
    while (!this.done) {
      const r = await this.iterator.next();
      if (r.done) {
        this.done = true;
        return;
      }
      if (this.hashed) this.hash.update(r.value);
      this.bytesRead += r.value.length;
      yield r.value;
    }
  }

  /** Closes the file without reading the rest; for a source that is not hashed. */
  async close(): Promise<void> {
    this.done = true;
    await this.iterator.return?.();
  }

  /** Reads what is left (for the hash only) and returns the SHA-256 of the whole file. */
  async sha256(): Promise<string> {
    while (!this.done) {
      const r = await this.iterator.next();
      if (r.done) this.done = true;
      else this.hash.update(r.value);
    }
    return this.hash.digest('hex');
  }
}

/** Decoded text of raw chunks; a leading BOM is dropped. */
export async function* decodeChunks(chunks: AsyncIterable<Buffer>, encoding: string): AsyncGenerator<string> {
  const decoder = iconvLite().getDecoder(encoding, { stripBOM: true });
  for await (const chunk of chunks) {
    const s = decoder.write(chunk);
    if (s) yield s;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** The first 4 KiB of a file, for format detection; an unreadable file is ERR_INTAKE_FILE_UNREADABLE. */
export async function readHead(file: string): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw new SettleError('ERR_INTAKE_FILE_UNREADABLE', `cannot read ${file} (${code})`, {
      cause: error,
    });
  } finally {
    await handle?.close();
  }
}
