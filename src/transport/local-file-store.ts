// FileStore on a local folder (a mounted share, a test folder, the demo). Atomicity comes from
// rename(2) within one folder; the data is fsynced before the rename so a crash cannot leave
// an empty or short file under the final name.
import { constants, createReadStream } from 'node:fs';
import { link, lstat, mkdir, open, readdir, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SettleError, isSettleError } from '../domain/errors.js';
import { kindOf, notRegularFile } from './entry-kind.js';
import { localOwner } from './file-owner.js';
import type { FileEntry, FileStore, FolderScan, ListOptions, MoveOutcome, WriteData } from './file-store.js';
import { sameContent } from './same-content.js';
import { intentOf, intentPath, finishMoves, type FinishedMove } from './move-intent.js';
import { checkRelativePath, normalizeRelativePath, splitPath } from './safe-path.js';
import { partPath } from './part-name.js';

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

// O_NOFOLLOW: a link put in place after the check is refused by the kernel (ELOOP), not
// followed. O_NONBLOCK: a FIFO swapped in after the check cannot hang the open.
const OPEN_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const OPEN_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** The real path of `path`, resolving links in the part that exists; the rest is appended as text. */
async function resolveExisting(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = path; ;) {
    try {
      return join(await realpath(current), ...rest.reverse());
    } catch (error) {
      const parent = dirname(current);
      if ((errnoOf(error) !== 'ENOENT' && errnoOf(error) !== 'ENOTDIR') || parent === current) throw error;
      rest.push(basename(current));
      current = parent;
    }
  }
}

export class LocalFileStore implements FileStore {
  readonly root: string;
  readonly description: string;

  private realRoot: Promise<string> | undefined;
  /** Called between a move's link and unlink; tests throw here to stand for a crash at that point. */
  afterLink?: (from: string, to: string) => Promise<void>;

  constructor(root: string) {
    this.root = resolve(root);
    this.description = `file://${this.root}`;
  }

  /** The absolute path of a checked relative path; it can only be inside the root. */
  private abs(path: string): string {
    const segments = checkRelativePath(path);
    const full = resolve(this.root, ...segments);
    // Defence in depth: the segment check already excludes '..' and absolute paths.
    if (full !== this.root && !full.startsWith(this.root + sep)) {
      throw new SettleError('ERR_FILE_NAME_UNSAFE', `Refused path ${JSON.stringify(path)}: it leaves the store root.`);
    }
    return full;
  }

  /**
   * The absolute path of `path` after checking that its real location is under the real root:
   * a folder inside the root that is a link to somewhere else is refused, not followed. The
   * last segment is left to the operation (opened without following links, or renamed).
   */
  private async inside(path: string, operation: string, whole = false): Promise<string> {
    const full = this.abs(path);
    try {
      this.realRoot ??= resolveExisting(this.root);
      const root = await this.realRoot;
      const real = await resolveExisting(whole || full === this.root ? full : dirname(full));
      if (real === root || real.startsWith(root + sep)) return full;
    } catch (error) {
      throw this.fail(operation, path, error);
    }
    throw new SettleError(
      'ERR_FILE_NAME_UNSAFE',
      `Refused path ${JSON.stringify(path)}: a folder on the way is a link that leads out of ${this.description}.`,
      { details: { value: path, reason: 'it leaves the store root through a link' } },
    );
  }

  /** Opens a regular file without following links; the handle must be what lstat saw. */
  private async openRegular(path: string, operation: string): Promise<FileHandle> {
    splitPath(path);
    const full = await this.inside(path, operation);
    const where = `${this.description}/${path}`;
    let handle: FileHandle | undefined;
    try {
      const seen = await lstat(full);
      const kind = kindOf(seen);
      if (kind !== 'file') throw notRegularFile(where, kind);
      handle = await open(full, OPEN_READ).catch((error: unknown) => {
        throw errnoOf(error) === 'ELOOP' ? notRegularFile(where, 'link') : error;
      });
      const opened = await handle.stat();
      if (!opened.isFile() || opened.ino !== seen.ino || opened.dev !== seen.dev)
        throw notRegularFile(where, 'replaced');
      // One file under two names: read here, a file kept elsewhere would pass for the inbox's own.
      if (opened.nlink > 1) throw notRegularFile(where, 'hard-link');
      return handle;
    } catch (error) {
      await handle?.close();
      throw this.fail(operation, path, error);
    }
  }

  private fail(operation: string, path: string, error: unknown): SettleError {
    if (isSettleError(error)) return error;
    const errno = errnoOf(error);
    const where = `${this.description}/${path}`;
    if (errno === 'ENOENT' || errno === 'ENOTDIR') {
      return new SettleError('ERR_FILE_NOT_FOUND', `${operation}: ${where} does not exist.`, {
        cause: error,
        details: { path },
      });
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new SettleError('ERR_FILE_IO', `${operation} failed on ${where}: ${reason}`, {
      cause: error,
      details: { path, errno },
    });
  }

  async list(dir: string, options: ListOptions = {}): Promise<FileEntry[]> {
    return (await this.look(dir, options.named)).files;
  }

  scan(dir: string): Promise<FolderScan> {
    return this.look(dir, undefined);
  }

  private async look(dir: string, named: ((name: string) => boolean) | undefined): Promise<FolderScan> {
    const full = await this.inside(dir, 'list', true);
    try {
      const names = (await readdir(full)).filter((name) => named?.(name) ?? true).sort();
      const scan: FolderScan = { files: [], others: [] };
      for (const name of names) {
        // lstat: a link is reported as a link, never followed to what it points at.
        const info = await lstat(`${full}${sep}${name}`).catch((error: unknown) => {
          if (errnoOf(error) === 'ENOENT') return undefined; // removed while listing
          throw error;
        });
        if (!info) continue;
        const kind = kindOf(info);
        const owner = kind === 'file' ? localOwner(info.uid) : undefined;
        if (kind === 'file')
          scan.files.push({ name, size: info.size, mtimeMs: info.mtimeMs, ...(owner ? { owner } : {}) });
        else scan.others.push({ name, kind, mtimeMs: info.mtimeMs });
      }
      return scan;
    } catch (error) {
      throw this.fail('list', dir, error);
    }
  }

  async stat(path: string): Promise<FileEntry | undefined> {
    splitPath(path);
    const full = await this.inside(path, 'stat');
    try {
      const info = await lstat(full);
      return info.isFile() ? { name: basename(full), size: info.size, mtimeMs: info.mtimeMs } : undefined;
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined;
      throw this.fail('stat', path, error);
    }
  }

  async read(path: string): Promise<Readable> {
    const handle = await this.openRegular(path, 'read');
    return handle.createReadStream();
  }

  async readBuffer(path: string): Promise<Buffer> {
    const handle = await this.openRegular(path, 'read');
    try {
      return await handle.readFile();
    } catch (error) {
      throw this.fail('read', path, error);
    } finally {
      await handle.close();
    }
  }

  async writeAtomic(path: string, data: WriteData): Promise<void> {
    splitPath(path);
    const full = await this.inside(path, 'write');
    const part = partPath(full);
    try {
      // A link planted under the .part name is refused, never written through.
      const handle = await open(part, OPEN_WRITE, 0o666);
      if (typeof data === 'function') await pipeline(Readable.from(data()), handle.createWriteStream({ flush: true }));
      else if (data instanceof Readable) await pipeline(data, handle.createWriteStream({ flush: true }));
      else {
        // Bytes in hand (a statement day, a report) skip the stream machinery, a large part of
        // a small file's cost when an export writes a month of days: written, synced, closed.
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      await rename(part, full);
    } catch (error) {
      await unlink(part).catch(() => undefined);
      throw this.fail('write', path, error);
    }
  }

  async move(from: string, to: string): Promise<MoveOutcome> {
    splitPath(from);
    splitPath(to);
    const source = await this.inside(from, 'move');
    const target = await this.inside(to, 'move');
    if (source === target) return 'already-there';
    const intent = intentPath(from);
    try {
      // The intent first (./move-intent.ts): a crash between link and unlink is recognised and
      // finished by the next run (finishMoves) instead of leaving a file with two links.
      if (intent) await this.writeAtomic(intent, intentOf(normalizeRelativePath(to), await lstat(source)));
      // link + unlink refuses an existing target atomically (rename(2) would replace it).
      try {
        await link(source, target);
      } catch (error) {
        const errno = errnoOf(error);
        if (errno === 'EEXIST') return await this.resolveClash(from, to, source, target);
        // File systems without hard links: check, then rename (a small window, documented).
        if (errno === 'EPERM' || errno === 'ENOTSUP' || errno === 'EXDEV' || errno === 'EOPNOTSUPP') {
          if (
            await lstat(target).then(
              () => true,
              () => false,
            )
          )
            return await this.resolveClash(from, to, source, target);
          await rename(source, target);
          return 'moved';
        }
        throw error;
      }
      await this.afterLink?.(from, to);
      await unlink(source);
      return 'moved';
    } catch (error) {
      throw this.fail('move', from, error);
    } finally {
      if (intent) await this.remove(intent).catch(() => undefined);
    }
  }

  /** Finishes the moves out of `dir` that a crash left between link and unlink (./move-intent.ts). */
  async finishMoves(dir: string): Promise<FinishedMove[]> {
    try {
      return await finishMoves({ abs: (path, folder) => this.inside(path, 'finishMoves', folder) }, dir);
    } catch (error) {
      throw this.fail('finishMoves', dir, error);
    }
  }

  private async resolveClash(from: string, to: string, source: string, target: string): Promise<MoveOutcome> {
    const [a, b] = await Promise.all([lstat(source), lstat(target)]);
    if (!a.isFile() || !b.isFile()) throw notRegularFile(`${this.description}/${b.isFile() ? from : to}`, 'other');
    const same = await sameContent([a.size, b.size], (which) =>
      Promise.resolve(createReadStream(which === 0 ? source : target)),
    );
    if (!same) {
      throw new SettleError(
        'ERR_FILE_TARGET_EXISTS',
        `Cannot move ${from} to ${to} in ${this.description}: the target exists with different content.`,
        { details: { from, to } },
      );
    }
    await unlink(source);
    return 'already-there';
  }

  async ensureDir(dir: string): Promise<void> {
    await this.rootMustExist();
    const full = await this.inside(dir, 'ensureDir', true);
    try {
      await mkdir(full, { recursive: true });
    } catch (error) {
      throw this.fail('ensureDir', dir, error);
    }
  }

  /**
   * Folders are created inside the root, never the root itself: a root that is not there is a
   * typo in companies[].root (or an unmounted share), and creating it would hide that behind an
   * empty inbox and write the reports where nobody looks.
   */
  private async rootMustExist(): Promise<void> {
    try {
      if ((await stat(this.root)).isDirectory()) return;
    } catch (error) {
      const errno = errnoOf(error);
      if (errno !== 'ENOENT' && errno !== 'ENOTDIR') throw this.fail('ensureDir', '.', error);
    }
    throw new SettleError(
      'ERR_FILE_NOT_FOUND',
      `The company root ${this.root} does not exist or is not a folder; settle never creates it. Correct companies[].root, or create the company's folders with settle company init <company>.`,
      { details: { root: this.root } },
    );
  }

  async exists(path: string): Promise<boolean> {
    const full = await this.inside(path, 'exists');
    try {
      return (await lstat(full)).isFile();
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return false;
      throw this.fail('exists', path, error);
    }
  }

  async remove(path: string): Promise<void> {
    splitPath(path);
    const full = await this.inside(path, 'remove');
    try {
      await unlink(full);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return;
      throw this.fail('remove', path, error);
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
