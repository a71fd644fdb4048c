// The one interface jobs use for folders, whether they are local or on an SFTP server.
// Paths are always relative to the store's root and use '/' as separator; every path is
// checked by ./safe-path.ts before it touches a file system (ERR_FILE_NAME_UNSAFE).
import type { Readable } from 'node:stream';
import type { FinishedMove } from './move-intent.js';

export type { FinishedMove };

/** A regular file in a folder listing. Directories and other kinds are not listed. */
export interface FileEntry {
  /** The bare file name (no folder part). */
  name: string;
  /** Size in bytes. */
  size: number;
  /** Last modification time in ms since the epoch (SFTP servers report whole seconds). */
  mtimeMs: number;
  /** Who owns it, as the server names them (./file-owner.ts); in listings only, when known. */
  owner?: string;
}

/** What an entry that is not a regular file is; pickup leaves these where they are. */
export type OtherKind = 'link' | 'directory' | 'fifo' | 'device' | 'socket' | 'other';

/** An entry of a folder that is not a regular file (never opened, never followed). */
export interface OtherEntry {
  name: string;
  kind: OtherKind;
  /** Last modification time of the entry itself (for a link: the link, not its target). */
  mtimeMs: number;
}

/** One look at a folder: its regular files, and everything else in it. */
export interface FolderScan {
  files: FileEntry[];
  others: OtherEntry[];
}

export interface ListOptions {
  /** Which names to list (default: all). */
  named?: (name: string) => boolean;
}

/** What `move` did: a plain rename, or the target already had the same bytes so the source was removed. */
export type MoveOutcome = 'moved' | 'already-there';

/**
 * Bytes made piece by piece, as often as asked: each call starts them again, so a write that
 * failed part way can be tried again (unlike a Readable), and they never all exist at once
 * (unlike a string), for a file of hundreds of megabytes (a report of every held line).
 */
export type ByteChunks = () => Iterable<Buffer>;

/** What `writeAtomic` takes: bytes in hand, a string (UTF-8), a stream, or chunks made on demand. */
export type WriteData = Buffer | string | Readable | ByteChunks;

export interface FileStore {
  /** A short, secret-free description for logs and messages, e.g. `sftp://bank@host:22/inbox`. */
  readonly description: string;
  /**
   * Regular files directly in `dir` ('' or '.' is the root), sorted by name. A missing folder is
   * ERR_FILE_NOT_FOUND. Links are never followed: a link to a file is not a file here. With
   * `named`, only the entries whose name it accepts are looked at: a folder that keeps years of
   * statement files costs one listing, not a look at each file, when only `.part` files matter.
   */
  list(dir: string, options?: ListOptions): Promise<FileEntry[]>;
  /** Like `list`, and also the entries that are not regular files (links, folders, FIFOs, devices). */
  scan(dir: string): Promise<FolderScan>;
  /** The regular file at `path` as it is now; undefined when it is gone or is not a regular file. */
  stat(path: string): Promise<FileEntry | undefined>;
  /**
   * The file's bytes as a stream. Only a regular file is opened, never through a link: the
   * entry is looked at without following links, opened, and the open handle compared with that
   * look, so a swap between the two is refused (ERR_FILE_NOT_REGULAR). Errors (missing file,
   * dropped connection) surface on the stream or the promise.
   */
  read(path: string): Promise<Readable>;
  /** The whole file in memory, opened like `read`; for files of modest size (payment files, reports). */
  readBuffer(path: string): Promise<Buffer>;
  /**
   * Writes `NAME.<tag>.part` beside the target (the tag is this process's, ./part-name.ts), then renames it over the target in one step, so a
   * reader never sees a partial file under the final name. An existing target is replaced.
   * Strings are written as UTF-8. On failure the `.part` file is removed (best effort).
   */
  writeAtomic(path: string, data: WriteData): Promise<void>;
  /**
   * Renames `from` to `to` (the target folder must exist). Never silently overwrites: when `to`
   * exists with the same bytes, `from` is removed ('already-there', so a crash between
   * two steps heals on re-run); when `to` exists with different bytes, ERR_FILE_TARGET_EXISTS.
   */
  move(from: string, to: string): Promise<MoveOutcome>;
  /**
   * Finishes the moves out of `dir` that a crash left half done, so no file stays there under a
   * second name (local folders: link then unlink, ./move-intent.ts); returns what it finished.
   */
  finishMoves(dir: string): Promise<FinishedMove[]>;
  /** Creates the folder and its parents; no error when it exists. */
  ensureDir(dir: string): Promise<void>;
  /** True when a regular file exists at `path`. */
  exists(path: string): Promise<boolean>;
  /** Removes a file; no error when it is already gone. */
  remove(path: string): Promise<void>;
  /** Releases connections. The store must not be used afterwards. */
  close(): Promise<void>;
}
