// FileStore on a local folder (a mounted share, a test folder, the demo). Atomicity comes from
// rename(2) within one folder; the data is fsynced before the rename so a crash cannot leave
// an empty or short file under the final name.
import { createReadStream, createWriteStream } from 'node:fs';
import { link, lstat, mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ExitCode, SettleError, isSettleError } from '../domain/errors.js';
import type { FileEntry, FileStore, MoveOutcome } from './file-store.js';
import { sameContent } from './same-content.js';
import { checkRelativePath, splitPath } from './safe-path.js';
import { partPath } from './part-name.js';

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export class LocalFileStore implements FileStore {
  readonly root: string;
  readonly description: string;

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
      throw new SettleError('ERR_FILE_NAME_UNSAFE', `Refused path ${JSON.stringify(path)}: it leaves the store root.`, {
        exitCode: ExitCode.findings,
      });
    }
    return full;
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

  async list(dir: string): Promise<FileEntry[]> {
    const full = this.abs(dir);
    try {
      const names = (await readdir(full)).sort();
      const entries: FileEntry[] = [];
      for (const name of names) {
        // stat (not lstat): a symlink to a file is listed like the file, as SFTP servers do.
        const info = await stat(`${full}${sep}${name}`).catch((error: unknown) => {
          if (errnoOf(error) === 'ENOENT') return undefined; // removed while listing
          throw error;
        });
        if (info?.isFile()) entries.push({ name, size: info.size, mtimeMs: info.mtimeMs });
      }
      return entries;
    } catch (error) {
      throw this.fail('list', dir, error);
    }
  }

  async read(path: string): Promise<Readable> {
    const full = this.abs(path);
    splitPath(path);
    try {
      // Open first so a missing file is a rejected promise, not a late stream error.
      const info = await stat(full);
      if (!info.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'EISDIR' });
      return createReadStream(full);
    } catch (error) {
      throw this.fail('read', path, error);
    }
  }

  async readBuffer(path: string): Promise<Buffer> {
    const full = this.abs(path);
    splitPath(path);
    try {
      return await readFile(full);
    } catch (error) {
      throw this.fail('read', path, error);
    }
  }

  async writeAtomic(path: string, data: Buffer | string | Readable): Promise<void> {
    const full = this.abs(path);
    splitPath(path);
    const part = partPath(full);
    try {
      const source =
        data instanceof Readable ? data : Readable.from([typeof data === 'string' ? Buffer.from(data, 'utf8') : data]);
      await pipeline(source, createWriteStream(part, { flush: true }));
      await rename(part, full);
    } catch (error) {
      await unlink(part).catch(() => undefined);
      throw this.fail('write', path, error);
    }
  }

  async move(from: string, to: string): Promise<MoveOutcome> {
    const source = this.abs(from);
    const target = this.abs(to);
    splitPath(from);
    splitPath(to);
    if (source === target) return 'already-there';
    try {
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
      await unlink(source);
      return 'moved';
    } catch (error) {
      throw this.fail('move', from, error);
    }
  }

  private async resolveClash(from: string, to: string, source: string, target: string): Promise<MoveOutcome> {
    const [a, b] = await Promise.all([stat(source), stat(target)]);
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
    const full = this.abs(dir);
    try {
      await mkdir(full, { recursive: true });
    } catch (error) {
      throw this.fail('ensureDir', dir, error);
    }
  }

  async exists(path: string): Promise<boolean> {
    const full = this.abs(path);
    try {
      return (await stat(full)).isFile();
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return false;
      throw this.fail('exists', path, error);
    }
  }

  async remove(path: string): Promise<void> {
    const full = this.abs(path);
    splitPath(path);
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
