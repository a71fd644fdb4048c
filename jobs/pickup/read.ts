// Reading one inbox file for pickup, and what a read that did not give the file as it was listed
// means. The inbox is written by others and an SFTP server is not ours: a file may be renamed,
// truncated or still growing while it is read, the connection may drop half-way, and a server
// may lie about a file's size or kind. Whatever happens, nothing of a file is taken unless the
// bytes read are exactly the file the listing showed, and the listing still shows it after the
// read; reading stops one chunk past the listed size, so a server that sends without end fills
// neither memory nor disk. Each case comes back with its reason for the run's summary.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isSettleError, type ErrorCode } from '../../src/domain/errors.js';
import { longerThanListed, type FileEntry, type FileStore } from '../../src/transport/index.js';

export type InboxRead =
  | { kind: 'read'; sha256: string }
  /** Not taken this run, nothing for a person: the next run reads it again. */
  | { kind: 'waiting'; why: string }
  /** Not taken, left in the inbox: a person should look (it will not get better by itself). */
  | { kind: 'refused'; code: ErrorCode; why: string };

/** What the read went through: the codes that say something about this one file, not the run. */
const AGAIN_NEXT_RUN: readonly ErrorCode[] = ['ERR_SFTP_CONNECT', 'ERR_SFTP_TIMEOUT', 'ERR_FILE_NOT_FOUND'];
const REFUSED: readonly ErrorCode[] = ['ERR_FILE_NOT_REGULAR', 'ERR_FILE_IO'];

/** Downloads `path` to `local` and checks it against `entry`, the stable check's look at it. */
export async function readInboxFile(
  fileStore: FileStore,
  path: string,
  local: string,
  entry: FileEntry,
): Promise<InboxRead> {
  let read: { sha256: string; bytes: number } | undefined;
  let overread = false;
  try {
    read = await download(fileStore, path, local, entry.size);
  } catch (error) {
    if (!isSettleError(error)) throw error;
    if (error.code === 'ERR_FILE_NOT_AS_LISTED') overread = true;
    else if (error.details?.kind === 'replaced') return changed('it was replaced while it was opened');
    else if (AGAIN_NEXT_RUN.includes(error.code))
      return {
        kind: 'waiting',
        why: `the file to be read whole: the read was cut off (${error.code}: ${error.message}); nothing of it was taken`,
      };
    else if (REFUSED.includes(error.code)) return { kind: 'refused', code: error.code, why: error.message };
    else throw error;
  }
  // A writer that kept going after the stable check: what was read is not the whole file.
  const after = await fileStore.stat(path);
  if (!after) return changed('it was renamed or removed while it was read');
  if (after.size !== entry.size || after.mtimeMs !== entry.mtimeMs)
    return changed(`it changed while it was read (${entry.size} bytes listed, ${after.size} now)`);
  // The listing still says what it said, but other bytes came: the server does not tell the truth.
  if (overread || read?.bytes !== entry.size) {
    const came = overread ? `more than ${entry.size}` : String(read?.bytes ?? 0);
    return {
      kind: 'refused',
      code: 'ERR_FILE_NOT_AS_LISTED',
      why: `${fileStore.description}${fileStore.description.endsWith('/') ? '' : '/'}${path} is listed with ${entry.size} byte(s), before and after reading it, but ${came} byte(s) came: nothing of it was taken. Ask whoever runs the server to check it; the file stays in the inbox.`,
    };
  }
  return { kind: 'read', sha256: read.sha256 };
}

/**
 * ERR_FILE_NOT_AS_LISTED for a file whose time is ahead of settle's clock by more than the
 * stable check waits for (a wrong server clock, or a lying server).
 */
export function timeAhead(
  fileStore: FileStore,
  path: string,
  mtimeMs: number,
  now: Date,
): Extract<InboxRead, { kind: 'refused' }> {
  const minutes = Math.round((mtimeMs - now.getTime()) / 60_000);
  return {
    kind: 'refused',
    code: 'ERR_FILE_NOT_AS_LISTED',
    why: `${fileStore.description}${fileStore.description.endsWith('/') ? '' : '/'}${path} has the time ${new Date(mtimeMs).toISOString()}, ${minutes} minute(s) ahead of settle's clock (${now.toISOString()}): the server's clock is wrong, or the server lies. It stays in the inbox and is taken once that time has passed; correct the server's clock, or drop the file again.`,
  };
}

function changed(what: string): InboxRead {
  return {
    kind: 'waiting',
    why: `the file to stay still: ${what}; nothing of it was taken, the next run reads it again`,
  };
}

/**
 * Copies the file to `local`, hashing it on the way (the one hash of the file on pickup), and
 * stops with ERR_FILE_NOT_AS_LISTED as soon as more than `listed` bytes came.
 */
async function download(
  fileStore: FileStore,
  path: string,
  local: string,
  listed: number,
): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const input = await fileStore.read(path);
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      // The pipeline then destroys the source too: no more is asked of the server.
      if (bytes > listed) return done(longerThanListed(fileStore.description, path, listed));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(input, counted, createWriteStream(local));
  return { sha256: hash.digest('hex'), bytes };
}
