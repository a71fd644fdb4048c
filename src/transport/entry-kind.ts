// What kind of folder entry a status says it is, and the refusal for anything that is not a
// regular file. An inbox is written by others: a link there could point at a secret or at a
// payment file somewhere else, a FIFO would block a reader forever, a device could be read
// without end. settle reads regular files only and says so in the user's words.
import { SettleError } from '../domain/errors.js';
import type { OtherKind } from './file-store.js';

/** The parts of fs.Stats and ssh2's Stats that tell the kind of an entry. */
export interface KindProbe {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
  isSocket(): boolean;
}

export function kindOf(info: KindProbe): OtherKind | 'file' {
  if (info.isFile()) return 'file';
  if (info.isSymbolicLink()) return 'link';
  if (info.isDirectory()) return 'directory';
  if (info.isFIFO()) return 'fifo';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'device';
  if (info.isSocket()) return 'socket';
  return 'other';
}

/** Why an entry is refused: its kind, swapped while being opened, or one file under several names. */
export type Refusal = OtherKind | 'replaced' | 'hard-link';

const WORDS: Record<Refusal, string> = {
  link: 'a link',
  directory: 'a folder',
  fifo: 'a named pipe (FIFO)',
  device: 'a device',
  socket: 'a socket',
  other: 'not a regular file',
  replaced: 'replaced between the check and the opening',
  // A second name of a file kept elsewhere (another company's archive, a secret): read as the
  // inbox's own file it could be paid, or quoted, from where it was never dropped.
  'hard-link': 'a file with more than one name (a hard link to a file elsewhere)',
};

const ADVICE = {
  other: 'Put the file itself there, not a link or anything else.',
  // A move settle stopped between link and unlink is finished by the next run (./move-intent.ts);
  // a second name left here is someone else's.
  'hard-link': 'Put a copy of the file there, not a second name of it.',
};

/** ERR_FILE_NOT_REGULAR: the entry is not a regular file (or was swapped while being opened). */
export function notRegularFile(where: string, kind: Refusal): SettleError {
  return new SettleError(
    'ERR_FILE_NOT_REGULAR',
    `${where} is ${WORDS[kind]}: settle reads regular files only and left it in place. ${ADVICE[kind === 'hard-link' ? 'hard-link' : 'other']}`,
    { details: { kind } },
  );
}

/**
 * ERR_FILE_NOT_AS_LISTED: more bytes came than the size the listing (or the open file) gave. A
 * writer that kept going, or a server that lies about sizes: either way reading stops there, so
 * a server that sends without end fills neither memory nor disk.
 */
export function longerThanListed(store: string, path: string, size: number): SettleError {
  return new SettleError(
    'ERR_FILE_NOT_AS_LISTED',
    `${store}${store.endsWith('/') ? '' : '/'}${path} sent more than the ${size} byte(s) its listing gave: settle stopped reading there and took nothing of it.`,
    { details: { path, listedBytes: size } },
  );
}
