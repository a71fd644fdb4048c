// An SFTP server that lies, built on ssh2's Server: an in-memory tree of folders and files
// that answers like OpenSSH for the files told the truth about, and for the others says what
// the test wants (a size, a time, a kind) while sending something else (more bytes, fewer,
// bytes without end, or a failure as a folder's read gives). The real sshd cannot be made to
// lie; this one exists only for that. It accepts any client key and has a host key of its own.
import { posix } from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, Connection, SFTPWrapper } from 'ssh2';
import { describeHostKey } from '../../src/transport/index.js';

const { Server, utils } = ssh2;
const { STATUS_CODE, OPEN_MODE } = utils.sftp;

const FILE_MODE = 0o100644;
const DIR_MODE = 0o040755;

/** What a lying file says about itself, and what its READs send. */
export interface Lie {
  /** The size listings, lstat and fstat give. */
  size: number;
  /** The mtime they give, seconds since the epoch (default: an hour ago). */
  mtime?: number;
  /** What lstat (not the listing) says it is: a listing that says file, an lstat that says folder. */
  lstatKind?: 'directory';
  /** What READ sends: these bytes, `endless` bytes, or a failure (a folder opened as a file). */
  sends: Buffer | 'endless' | 'read-fails';
}

type Node = { kind: 'dir'; mtime: number } | { kind: 'file'; data: Buffer; mtime: number; lie?: Lie };

export interface LyingSftpServer {
  host: string;
  port: number;
  hostKeySha256: string;
  /** Any key logs in; the client needs one to configure. */
  privateKey: string;
  /** Puts a truthful file (its folders are made). */
  put(path: string, data: Buffer | string, mtime?: number): void;
  /** Puts a file that lies. */
  lie(path: string, lie: Lie): void;
  /** What is at `path` now, for the test's checks. */
  read(path: string): Buffer | undefined;
  list(dir: string): string[];
  /** Bytes sent by READs so far (for the endless file: how far the client let it go). */
  bytesSent(): number;
  stop(): Promise<void>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function startLyingSftpServer(): Promise<LyingSftpServer> {
  const hostKey = utils.generateKeyPairSync('ed25519');
  const clientKey = utils.generateKeyPairSync('ed25519');
  const parsed = utils.parseKey(hostKey.private);
  if (parsed instanceof Error) throw parsed;
  const tree = new Map<string, Node>([['/', { kind: 'dir', mtime: nowSeconds() }]]);
  let sent = 0;

  const norm = (path: string) => posix.normalize(posix.join('/', path)).replace(/(.)\/$/, '$1');
  const mkdirs = (dir: string) => {
    for (let at = dir; at !== '/' && !tree.has(at); at = posix.dirname(at))
      tree.set(at, { kind: 'dir', mtime: nowSeconds() });
  };
  const attrsOf = (node: Node, how: 'listing' | 'lstat' | 'fstat'): Attributes => {
    if (node.kind === 'dir')
      return { mode: DIR_MODE, uid: 0, gid: 0, size: 4096, atime: node.mtime, mtime: node.mtime };
    const lie = node.lie;
    const mode = lie?.lstatKind === 'directory' && how === 'lstat' ? DIR_MODE : FILE_MODE;
    const size = lie ? lie.size : node.data.length;
    const mtime = lie?.mtime ?? node.mtime;
    return { mode, uid: 0, gid: 0, size, atime: mtime, mtime };
  };

  const serve = (sftp: SFTPWrapper) => {
    const handles = new Map<number, { path: string; listed?: boolean }>();
    let next = 0;
    const handle = (path: string) => {
      const id = next++;
      handles.set(id, { path });
      const buf = Buffer.alloc(4);
      buf.writeUInt32BE(id);
      return buf;
    };
    const opened = (buf: Buffer) => (buf.length === 4 ? handles.get(buf.readUInt32BE(0)) : undefined);
    const status = (id: number, code: number, message?: string) => sftp.status(id, code, message);
    sftp.on('REALPATH', (id, path) => sftp.name(id, [{ filename: norm(path), longname: '', attrs: {} as Attributes }]));
    for (const op of ['STAT', 'LSTAT'] as const) {
      sftp.on(op, (id: number, path: string) => {
        const node = tree.get(norm(path));
        if (!node) return status(id, STATUS_CODE.NO_SUCH_FILE);
        sftp.attrs(id, attrsOf(node, 'lstat'));
      });
    }
    sftp.on('FSTAT', (id, buf) => {
      const h = opened(buf);
      const node = h && tree.get(h.path);
      if (!node) return status(id, STATUS_CODE.FAILURE);
      sftp.attrs(id, attrsOf(node, 'fstat'));
    });
    sftp.on('OPEN', (id, filename, flags) => {
      const path = norm(filename);
      const node = tree.get(path);
      if (flags & OPEN_MODE.WRITE) {
        if (!tree.has(posix.dirname(path))) return status(id, STATUS_CODE.NO_SUCH_FILE);
        tree.set(path, { kind: 'file', data: Buffer.alloc(0), mtime: nowSeconds() });
        return sftp.handle(id, handle(path));
      }
      if (!node) return status(id, STATUS_CODE.NO_SUCH_FILE);
      sftp.handle(id, handle(path));
    });
    sftp.on('READ', (id, buf, offset, length) => {
      const node = tree.get(opened(buf)?.path ?? '');
      if (!node || node.kind !== 'file') return status(id, STATUS_CODE.FAILURE);
      const sends = node.lie?.sends ?? node.data;
      if (sends === 'read-fails') return status(id, STATUS_CODE.FAILURE, 'Is a directory');
      const chunk = sends === 'endless' ? Buffer.alloc(length, 0x41) : sends.subarray(offset, offset + length);
      if (chunk.length === 0) return status(id, STATUS_CODE.EOF);
      sent += chunk.length;
      sftp.data(id, chunk);
    });
    sftp.on('WRITE', (id, buf, offset, data) => {
      const node = tree.get(opened(buf)?.path ?? '');
      if (!node || node.kind !== 'file') return status(id, STATUS_CODE.FAILURE);
      const grown = Buffer.alloc(Math.max(node.data.length, offset + data.length));
      node.data.copy(grown);
      data.copy(grown, offset);
      node.data = grown;
      status(id, STATUS_CODE.OK);
    });
    sftp.on('CLOSE', (id, buf) => {
      if (buf.length === 4) handles.delete(buf.readUInt32BE(0));
      status(id, STATUS_CODE.OK);
    });
    sftp.on('OPENDIR', (id, path) => {
      const node = tree.get(norm(path));
      if (!node) return status(id, STATUS_CODE.NO_SUCH_FILE);
      if (node.kind !== 'dir') return status(id, STATUS_CODE.FAILURE);
      sftp.handle(id, handle(norm(path)));
    });
    sftp.on('READDIR', (id, buf) => {
      const h = opened(buf);
      if (!h) return status(id, STATUS_CODE.FAILURE);
      if (h.listed) return status(id, STATUS_CODE.EOF);
      h.listed = true;
      const prefix = h.path === '/' ? '/' : `${h.path}/`;
      const names = [...tree.entries()].filter(
        ([p]) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/') && p !== prefix,
      );
      sftp.name(
        id,
        names.map(([p, node]) => ({
          filename: posix.basename(p),
          longname: posix.basename(p),
          attrs: attrsOf(node, 'listing'),
        })),
      );
    });
    sftp.on('MKDIR', (id, path) => {
      const at = norm(path);
      if (tree.has(at)) return status(id, STATUS_CODE.FAILURE);
      if (!tree.has(posix.dirname(at))) return status(id, STATUS_CODE.NO_SUCH_FILE);
      tree.set(at, { kind: 'dir', mtime: nowSeconds() });
      status(id, STATUS_CODE.OK);
    });
    sftp.on('REMOVE', (id, path) => status(id, tree.delete(norm(path)) ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE));
    sftp.on('RENAME', (id, from, to) => {
      const node = tree.get(norm(from));
      if (!node) return status(id, STATUS_CODE.NO_SUCH_FILE);
      // Like OpenSSH's SSH_FXP_RENAME: never replaces an existing file.
      if (tree.has(norm(to)) || !tree.has(posix.dirname(norm(to)))) return status(id, STATUS_CODE.FAILURE);
      tree.delete(norm(from));
      tree.set(norm(to), node);
      status(id, STATUS_CODE.OK);
    });
    for (const op of ['SETSTAT', 'FSETSTAT'] as const) sftp.on(op, (id: number) => status(id, STATUS_CODE.OK));
  };

  const server = new Server({ hostKeys: [hostKey.private] }, (client: Connection) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => ctx.accept());
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => serve(acceptSftp()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: '127.0.0.1',
    port,
    hostKeySha256: describeHostKey(parsed.getPublicSSH()).fingerprint,
    privateKey: clientKey.private,
    put: (path, data, mtime) => {
      mkdirs(posix.dirname(norm(path)));
      tree.set(norm(path), { kind: 'file', data: Buffer.from(data), mtime: mtime ?? nowSeconds() - 3600 });
    },
    lie: (path, lie) => {
      mkdirs(posix.dirname(norm(path)));
      tree.set(norm(path), { kind: 'file', data: Buffer.alloc(0), mtime: nowSeconds() - 3600, lie });
    },
    read: (path) => {
      const node = tree.get(norm(path));
      return node?.kind === 'file' ? node.data : undefined;
    },
    list: (dir) => {
      const prefix = `${norm(dir)}/`;
      return [...tree.keys()]
        .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map((p) => posix.basename(p))
        .sort();
    },
    bytesSent: () => sent,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
