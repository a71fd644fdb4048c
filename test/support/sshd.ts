// A private OpenSSH sshd for the SFTP tests: its own temp folder, host key, client keys,
// sshd_config and PidFile, on a free loopback port, stopped and removed afterwards. Never a
// protocol mock: the SFTP store must work against the real server operators run.
//
// As root it logs in a dedicated user (settle-sftp-test, created when missing, shell nologin,
// a random password kept in a root-only file so parallel test files agree on it). Without
// root, sshd can only serve the current user and cannot check passwords: `password` is then
// undefined and password tests must skip.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { isSettleError, type SettleError } from '../../src/domain/errors.js';

const run = promisify(execFile);
// SETTLE_TEST_SSHD points at another sshd binary (other distributions, or to check the skip path).
const SSHD = process.env.SETTLE_TEST_SSHD ?? '/usr/sbin/sshd';
const TEST_USER = 'settle-sftp-test';

export interface SshdServer {
  host: string;
  port: number;
  username: string;
  /** Undefined when the tests do not run as root (sshd cannot check passwords then). */
  password: string | undefined;
  /** Unencrypted client key (OpenSSH format) listed in authorized_keys. */
  privateKey: string;
  /** An encrypted client key, also authorized, and its passphrase. */
  encryptedKey: { privateKey: string; passphrase: string };
  /** A key that is NOT authorized. */
  strangerKey: string;
  /** "SHA256:…" of the server's host key, as ssh-keygen prints it. */
  hostKeySha256: string;
  /** Absolute folder on the server the test user may write to. */
  filesRoot: string;
  /** Kills the per-connection sshd processes (the listener stays): a dropped connection. */
  killConnections(): Promise<number>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the per-connection processes: a hung server. */
  freezeConnections(frozen: boolean): Promise<number>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function keygen(path: string, passphrase = ''): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'settle-test', '-f', path]);
}

async function fingerprintOf(publicKeyPath: string): Promise<string> {
  const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyPath]);
  const match = /SHA256:[A-Za-z0-9+/]+/.exec(stdout);
  if (!match) throw new Error(`ssh-keygen printed no SHA256 fingerprint: ${stdout}`);
  return match[0];
}

async function ensureTestUser(): Promise<{ username: string; password: string; uid: number; gid: number }> {
  const exists = async () =>
    run('id', ['-u', TEST_USER]).then(
      () => true,
      () => false,
    );
  if (!(await exists())) {
    // A parallel test file may create it at the same moment: only fail if it is still missing.
    await run('useradd', ['--create-home', '--shell', '/usr/sbin/nologin', TEST_USER]).catch(async (error: unknown) => {
      if (!(await exists())) throw error;
    });
  }
  const passwordFile = join(tmpdir(), `${TEST_USER}.password`);
  const fresh = randomBytes(18).toString('base64url');
  await writeFile(passwordFile, fresh, { flag: 'wx', mode: 0o600 }).catch(() => undefined);
  const password = (await readFile(passwordFile, 'utf8')).trim();
  // sshd refuses a user with a locked password even for key logins: give it a usable one.
  await new Promise<void>((resolve, reject) => {
    const child = spawn('chpasswd', [], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`chpasswd failed: ${stderr}`))));
    child.stdin.end(`${TEST_USER}:${password}\n`);
  });
  const uid = Number((await run('id', ['-u', TEST_USER])).stdout.trim());
  const gid = Number((await run('id', ['-g', TEST_USER])).stdout.trim());
  return { username: TEST_USER, password, uid, gid };
}

/** Pids of all descendants of `pid`, from /proc. */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // Field 4 (ppid) follows the command name in parentheses, which may contain spaces.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(after[1]);
    if (Number.isFinite(ppid)) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function signalAll(pids: number[], signal: NodeJS.Signals): number {
  let count = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
      count++;
    } catch {
      // already gone
    }
  }
  return count;
}

function waitForListening(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`sshd did not start within 10 s: ${stderr}`)), 10_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`Server listening on 127.0.0.1 port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sshd exited with ${String(code)}: ${stderr.trim()}`));
    });
  });
}

export async function startSshd(): Promise<SshdServer> {
  await access(SSHD, constants.X_OK);
  const isRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(join(tmpdir(), 'settle-sshd-'));
  try {
    // sshd reads authorized_keys as the logged-in user: the folder must be readable to it.
    await chmod(dir, 0o755);
    await keygen(join(dir, 'host_ed25519'));
    await keygen(join(dir, 'client_ed25519'));
    await keygen(join(dir, 'stranger_ed25519'));
    const passphrase = randomBytes(12).toString('base64url');
    await keygen(join(dir, 'client_encrypted'), passphrase);
    const authorized =
      (await readFile(join(dir, 'client_ed25519.pub'), 'utf8')) +
      (await readFile(join(dir, 'client_encrypted.pub'), 'utf8'));
    await writeFile(join(dir, 'authorized_keys'), authorized, { mode: 0o644 });

    const user = isRoot
      ? await ensureTestUser()
      : { username: userInfo().username, password: undefined, uid: -1, gid: -1 };
    const filesRoot = join(dir, 'files');
    await mkdir(filesRoot, { mode: 0o755 });
    if (isRoot) {
      await chown(filesRoot, user.uid, user.gid);
      await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
    }

    let lastError: unknown;
    for (let tries = 0; tries < 3; tries++) {
      const port = await freePort();
      const config = join(dir, 'sshd_config');
      await writeFile(
        config,
        [
          `Port ${port}`,
          'ListenAddress 127.0.0.1',
          `HostKey ${join(dir, 'host_ed25519')}`,
          `PidFile ${join(dir, 'sshd.pid')}`,
          `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
          'StrictModes no',
          'UsePAM no',
          'PubkeyAuthentication yes',
          `PasswordAuthentication ${isRoot ? 'yes' : 'no'}`,
          'KbdInteractiveAuthentication no',
          'PermitRootLogin no',
          `AllowUsers ${user.username}`,
          'Subsystem sftp internal-sftp',
          'ForceCommand internal-sftp',
          'MaxStartups 100',
          'LogLevel INFO',
          '',
        ].join('\n'),
      );
      const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
      try {
        await waitForListening(child, port);
      } catch (error) {
        lastError = error;
        child.kill('SIGKILL');
        continue;
      }
      const pid = child.pid ?? -1;
      const read = async (name: string) => readFile(join(dir, name), 'utf8');
      return {
        host: '127.0.0.1',
        port,
        username: user.username,
        password: user.password,
        privateKey: await read('client_ed25519'),
        encryptedKey: { privateKey: await read('client_encrypted'), passphrase },
        strangerKey: await read('stranger_ed25519'),
        hostKeySha256: await fingerprintOf(join(dir, 'host_ed25519.pub')),
        filesRoot,
        killConnections: async () => signalAll(await descendants(pid), 'SIGKILL'),
        freezeConnections: async (frozen) => signalAll(await descendants(pid), frozen ? 'SIGSTOP' : 'SIGCONT'),
        stop: async () => {
          const children = await descendants(pid);
          signalAll(children, 'SIGCONT');
          signalAll(children, 'SIGKILL');
          if (child.exitCode === null) {
            const exited = new Promise((resolve) => child.once('exit', resolve));
            child.kill('SIGTERM');
            await exited;
          }
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    throw lastError instanceof Error ? lastError : new Error('sshd did not start');
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Starts sshd for a test file. When it cannot start: with CI set the caller must fail the
 * suite (the returned reason says why); otherwise it skips, and this prints a loud warning.
 */
export async function startSshdForTests(): Promise<{ server: SshdServer | undefined; reason: string | undefined }> {
  try {
    return { server: await startSshd(), reason: undefined };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!process.env.CI) {
      console.warn(
        `\n*** WARNING: SFTP tests SKIPPED — could not start a private sshd: ${reason}\n*** Install openssh-server (apt-get install -y openssh-server) to run them.\n`,
      );
    }
    return { server: undefined, reason };
  }
}

/** The SettleError a promise rejects with (anything else, or no failure, fails the test). */
export async function failure(promise: Promise<unknown>): Promise<SettleError> {
  try {
    await promise;
  } catch (error) {
    if (isSettleError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/** A well-formed SHA256 host key fingerprint that no server here has. */
export function otherFingerprint(): string {
  return `SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')}`;
}
