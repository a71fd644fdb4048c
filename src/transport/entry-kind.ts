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

const WORDS: Record<OtherKind | 'replaced', string> = {
  link: 'a link',
  directory: 'a folder',
  fifo: 'a named pipe (FIFO)',
  device: 'a device',
  socket: 'a socket',
  other: 'not a regular file',
  replaced: 'replaced between the check and the opening',
};

/** ERR_FILE_NOT_REGULAR: the entry is not a regular file (or was swapped while being opened). */
export function notRegularFile(where: string, kind: OtherKind | 'replaced'): SettleError {
  return new SettleError(
    'ERR_FILE_NOT_REGULAR',
    `${where} is ${WORDS[kind]}: settle reads regular files only and left it in place. Put the file itself there, not a link or anything else.`,
    { details: { kind } },
  );
}
