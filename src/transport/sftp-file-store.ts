// FileStore on an SFTP server (OpenSSH and compatible). The host key is pinned
// (./sftp-connect.ts); sessions, timeouts and the retry after a dropped connection live in
// ./sftp-session.ts. Writes go to NAME.<tag>.part and are renamed over the target with OpenSSH's
// posix-rename; moves use plain SFTP rename, which never replaces an existing file.
import { PassThrough, Readable } from 'node:stream';
import type { FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2';
import { SettleError } from '../domain/errors.js';
import { registerSecret } from '../log/redact.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { kindOf, longerThanListed, notRegularFile } from './entry-kind.js';
import type {
  FileEntry,
  FileStore,
  FinishedMove,
  FolderScan,
  ListOptions,
  MoveOutcome,
  WriteData,
} from './file-store.js';
import { ownerFromLongname } from './file-owner.js';
import { normalizeFingerprint } from './host-key.js';
import { sameContent } from './same-content.js';
import { checkRelativePath, splitPath } from './safe-path.js';
import { endpointText, unpinnedError, type SftpConnection } from './sftp-connect.js';
import { call, END_OF_FILE, FAILURE, NO_SUCH_FILE, SftpSession, statusOf, type RunOptions } from './sftp-session.js';
import { partPath } from './part-name.js';

export interface SftpFileStoreOptions {
  host: string;
  /** Default 22. */
  port?: number;
  username: string;
  password?: string;
  /** Private key text (OpenSSH or PEM). */
  privateKey?: string | Buffer;
  passphrase?: string;
  /** The server's host key fingerprint, "SHA256:…" as `ssh-keygen -lf` or `settle sftp fingerprint` print it. */
  hostKeySha256?: string;
  /** Accept any host key (logged as a warning). Only for throw-away test servers. */
  allowUnpinned?: boolean;
  /** Folder on the server that all paths are relative to; default '.', the login folder. */
  root?: string;
  /** Handshake and per-operation time limit; default 30 000 ms. */
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * A read stream whose late errors cannot crash the process: ssh2 closes the file handle after
 * the last byte, and if the session drops during that close the stream emits an error that no
 * consumer listens for any more. Consumers still see errors that happen while they read.
 */
function openStream(sftp: SFTPWrapper, path: string, handle?: Buffer): Readable {
  const stream = sftp.createReadStream(path, handle ? { handle } : {});
  stream.on('error', () => undefined);
  return stream;
}

/**
 * SFTP (version 3) has no inode numbers and no "open without following links", so the open
 * handle is compared with the lstat by everything the server reports about a file: a link
 * swapped in between would have to lead to a file with the same size, time, owner and mode.
 */
function sameFile(seen: Stats, opened: Stats): boolean {
  return (
    opened.isFile() &&
    opened.size === seen.size &&
    opened.mtime === seen.mtime &&
    opened.uid === seen.uid &&
    opened.gid === seen.gid &&
    opened.mode === seen.mode
  );
}

export class SftpFileStore implements FileStore {
  readonly description: string;
  private readonly root: string;
  private readonly session: SftpSession;

  constructor(options: SftpFileStoreOptions) {
    const port = options.port ?? 22;
    const endpoint = { host: options.host, port };
    const root = (options.root ?? '.').replace(/(.)\/+$/, '$1');
    this.root = root;
    this.description = `sftp://${options.username}@${endpointText(endpoint)}/${root === '.' ? '' : root.replace(/^\//, '')}`;
    registerSecret(options.password);
    registerSecret(options.passphrase);
    if (options.password === undefined && options.privateKey === undefined) {
      throw new SettleError(
        'ERR_SFTP_AUTH',
        `No password or private key is configured for SFTP user ${JSON.stringify(options.username)} at ${endpointText(endpoint)}.`,
      );
    }
    let pin: string | undefined;
    if (options.hostKeySha256 !== undefined && options.hostKeySha256.trim() !== '') {
      pin = normalizeFingerprint(options.hostKeySha256);
      if (pin === undefined) {
        throw new SettleError(
          'ERR_SFTP_HOST_KEY_UNPINNED',
          `The pinned host key for SFTP server ${endpointText(endpoint)} is not a SHA256 fingerprint (expected "SHA256:" and 43 base64 characters); run \`settle sftp fingerprint ${endpointText(endpoint)}\` to get one.`,
        );
      }
    } else if (options.allowUnpinned !== true) {
      throw unpinnedError(endpoint);
    }
    const logger = options.logger ?? silentLogger();
    this.session = new SftpSession(
      {
        host: options.host,
        port,
        username: options.username,
        password: options.password,
        privateKey: options.privateKey,
        passphrase: options.passphrase,
        hostKeySha256: pin,
        timeoutMs: options.timeoutMs ?? 30_000,
        logger,
      },
      logger,
      this.description,
    );
  }

  private run<T>(
    operation: string,
    path: string,
    options: RunOptions,
    work: (connection: SftpConnection, attempt: number) => Promise<T>,
  ): Promise<T> {
    return this.session.run(operation, path, options, work);
  }

  private fail(operation: string, path: string, error: unknown): SettleError {
    return this.session.fail(operation, path, error);
  }

  private remote(path: string): string {
    const segments = checkRelativePath(path);
    const root = this.root;
    if (segments.length === 0) return root;
    return root === '.' ? segments.join('/') : `${root === '/' ? '' : root}/${segments.join('/')}`;
  }

  private async statOrUndefined(sftp: SFTPWrapper, remotePath: string): Promise<Stats | undefined> {
    try {
      return await call<Stats>((cb) => sftp.stat(remotePath, cb));
    } catch (error) {
      if (statusOf(error) === NO_SUCH_FILE) return undefined;
      throw error;
    }
  }

  async list(dir: string, options: ListOptions = {}): Promise<FileEntry[]> {
    // The server's listing carries each entry's attributes: filtering it costs nothing more.
    const { files } = await this.scan(dir);
    return options.named === undefined ? files : files.filter((f) => options.named!(f.name));
  }

  async scan(dir: string): Promise<FolderScan> {
    const remoteDir = this.remote(dir);
    return this.run('list', dir, { idempotent: true }, async ({ sftp }) => {
      const scan: FolderScan = { files: [], others: [] };
      // The folder is read a batch (about 100 entries) at a time, and each entry is kept only as
      // its name, size and time: a folder of 100,000 entries costs those, not the server's
      // whole answer with its long names and attributes at once (docs/transport.md).
      const handle = await call<Buffer>((cb) => sftp.opendir(remoteDir, cb));
      // One string per owner, however many files: a name cut from each entry's long name would keep
      // that whole long name alive, which for 100,000 entries is most of the listing again.
      const owners = new Map<string, string>();
      const ownerOf = (longname: string): string | undefined => {
        const owner = ownerFromLongname(longname);
        if (owner === undefined) return undefined;
        const known = owners.get(owner);
        if (known !== undefined) return known;
        owners.set(owner, owner);
        return owner;
      };
      try {
        for (;;) {
          const batch = await this.nextBatch(sftp, handle);
          if (batch === undefined) break;
          // readdir reports each entry as lstat does: a link is a link, and is never followed.
          for (const { filename: name, longname, attrs } of batch) {
            if (name === '.' || name === '..') continue;
            const kind = kindOf(attrs);
            const owner = kind === 'file' ? ownerOf(longname) : undefined;
            if (kind === 'file')
              scan.files.push({ name, size: attrs.size, mtimeMs: attrs.mtime * 1000, ...(owner ? { owner } : {}) });
            else scan.others.push({ name, kind, mtimeMs: attrs.mtime * 1000 });
          }
        }
      } finally {
        await call((cb) => sftp.close(handle, cb)).catch(() => undefined);
      }
      const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      scan.files.sort(byName);
      scan.others.sort(byName);
      return scan;
    });
  }

  /** The next entries of an open folder; undefined at its end. */
  private async nextBatch(sftp: SFTPWrapper, handle: Buffer): Promise<FileEntryWithStats[] | undefined> {
    try {
      const batch = await call<FileEntryWithStats[] | false>((cb) => sftp.readdir(handle, cb));
      return batch === false ? undefined : batch;
    } catch (error) {
      if (statusOf(error) === END_OF_FILE) return undefined;
      throw error;
    }
  }

  async stat(path: string): Promise<FileEntry | undefined> {
    const { name } = splitPath(path);
    const remotePath = this.remote(path);
    return this.run('stat', path, { idempotent: true }, async ({ sftp }) => {
      const info = await this.lstatOrUndefined(sftp, remotePath);
      return info?.isFile() ? { name, size: info.size, mtimeMs: info.mtime * 1000 } : undefined;
    });
  }

  private async lstatOrUndefined(sftp: SFTPWrapper, remotePath: string): Promise<Stats | undefined> {
    try {
      return await call<Stats>((cb) => sftp.lstat(remotePath, cb));
    } catch (error) {
      if (statusOf(error) === NO_SUCH_FILE) return undefined;
      throw error;
    }
  }

  /** lstat, open, fstat of the handle compared with the lstat: a link on the server is never read. */
  private async openRegular(
    sftp: SFTPWrapper,
    path: string,
    remotePath: string,
  ): Promise<{ handle: Buffer; size: number }> {
    const where = `${this.description}${this.description.endsWith('/') ? '' : '/'}${path}`;
    const seen = await call<Stats>((cb) => sftp.lstat(remotePath, cb));
    const kind = kindOf(seen);
    if (kind !== 'file') throw notRegularFile(where, kind);
    const handle = await call<Buffer>((cb) => sftp.open(remotePath, 'r', cb));
    try {
      const opened = await call<Stats>((cb) => sftp.fstat(handle, cb));
      if (!sameFile(seen, opened)) throw notRegularFile(where, 'replaced');
      return { handle, size: opened.size };
    } catch (error) {
      await call((cb) => sftp.close(handle, cb)).catch(() => undefined);
      throw error;
    }
  }

  async read(path: string): Promise<Readable> {
    splitPath(path);
    const remotePath = this.remote(path);
    return this.run('read', path, { idempotent: true }, async (connection) => {
      const { sftp } = connection;
      const { handle } = await this.openRegular(sftp, path, remotePath);
      const source = openStream(sftp, remotePath, handle);
      const out = new PassThrough();
      source.on('error', (error: unknown) => out.destroy(this.session.streamError('read', path, error, connection)));
      source.pipe(out);
      return out;
    });
  }

  async readBuffer(path: string): Promise<Buffer> {
    splitPath(path);
    const remotePath = this.remote(path);
    return this.run('read', path, { idempotent: true }, async ({ sftp }) => {
      const { handle, size } = await this.openRegular(sftp, path, remotePath);
      const chunks: Buffer[] = [];
      let total = 0;
      const source = openStream(sftp, remotePath, handle);
      for await (const chunk of source) {
        chunks.push(chunk as Buffer);
        total += (chunk as Buffer).length;
        // A server that sends more than the size it gave the open file would fill memory.
        if (total > size) {
          source.destroy();
          throw longerThanListed(this.description, path, size);
        }
      }
      return Buffer.concat(chunks);
    });
  }

  async writeAtomic(path: string, data: WriteData): Promise<void> {
    splitPath(path);
    const target = this.remote(path);
    const part = partPath(target);
    const replayable = !(data instanceof Readable);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await this.run('write', path, { idempotent: replayable, timed: replayable }, async (connection) => {
      const { client, sftp } = connection;
      try {
        // Chunks start again on each attempt: a retried write sends the whole file again.
        await client.put(typeof bytes === 'function' ? Readable.from(bytes()) : bytes, part);
        await this.renameOver(sftp, part, target);
      } catch (error) {
        if (connection.alive) await call((cb) => sftp.unlink(part, cb)).catch(() => undefined);
        throw error;
      }
    });
  }

  /** Atomic replace with OpenSSH's posix-rename; plain SFTP rename refuses an existing target. */
  private async renameOver(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
    try {
      await call((cb) => sftp.ext_openssh_rename(from, to, cb));
    } catch (error) {
      if (!/not support/i.test(error instanceof Error ? error.message : '')) throw error;
      // Servers without the extension: replace in two steps (a short window without the file).
      await call((cb) => sftp.unlink(to, cb)).catch(() => undefined);
      await call((cb) => sftp.rename(from, to, cb));
    }
  }

  /** Nothing to finish: a move is one SSH_FXP_RENAME, which the server does or does not do. */
  finishMoves(): Promise<FinishedMove[]> {
    return Promise.resolve([]);
  }

  async move(from: string, to: string): Promise<MoveOutcome> {
    splitPath(from);
    splitPath(to);
    const source = this.remote(from);
    const target = this.remote(to);
    if (source === target) return 'already-there';
    return this.run('move', from, { idempotent: true }, async ({ sftp }, attempt) => {
      try {
        // SSH_FXP_RENAME never replaces an existing file (OpenSSH uses link + unlink).
        await call((cb) => sftp.rename(source, target, cb));
        return 'moved';
      } catch (error) {
        const status = statusOf(error);
        if (status !== FAILURE && status !== NO_SUCH_FILE && status !== 11) throw error;
        const there = await this.statOrUndefined(sftp, target);
        const here = await this.statOrUndefined(sftp, source);
        // A retry after a lost reply: the first attempt already moved it.
        if (attempt > 1 && there && !here) return 'moved';
        if (!there || !here) throw error;
        const same = await sameContent([here.size, there.size], (which) =>
          Promise.resolve(openStream(sftp, which === 0 ? source : target)),
        );
        if (!same) {
          throw new SettleError(
            'ERR_FILE_TARGET_EXISTS',
            `Cannot move ${from} to ${to} in ${this.description}: the target exists with different content.`,
            {
              details: { from, to },
            },
          );
        }
        await call((cb) => sftp.unlink(source, cb));
        return 'already-there';
      }
    });
  }

  async ensureDir(dir: string): Promise<void> {
    const segments = checkRelativePath(dir);
    await this.run('ensureDir', dir, { idempotent: true }, async ({ sftp }) => {
      for (let depth = 0; depth <= segments.length; depth++) {
        const remotePath = this.remote(segments.slice(0, depth).join('/'));
        let info = await this.statOrUndefined(sftp, remotePath);
        if (!info && depth > 0) {
          // Another process may create it at the same moment: look again after a failure.
          await call((cb) => sftp.mkdir(remotePath, cb)).catch(() => undefined);
          info = await this.statOrUndefined(sftp, remotePath);
        }
        if (!info)
          throw Object.assign(new Error(`cannot create ${remotePath}`), { code: depth === 0 ? NO_SUCH_FILE : FAILURE });
        if (!info.isDirectory())
          throw Object.assign(new Error(`${remotePath} exists and is not a folder`), { code: FAILURE });
      }
    });
  }

  async exists(path: string): Promise<boolean> {
    const remotePath = this.remote(path);
    return this.run(
      'exists',
      path,
      { idempotent: true },
      async ({ sftp }) => (await this.lstatOrUndefined(sftp, remotePath))?.isFile() ?? false,
    );
  }

  async remove(path: string): Promise<void> {
    splitPath(path);
    const remotePath = this.remote(path);
    await this.run('remove', path, { idempotent: true }, async ({ sftp }) => {
      try {
        await call((cb) => sftp.unlink(remotePath, cb));
      } catch (error) {
        if (statusOf(error) !== NO_SUCH_FILE) throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}
