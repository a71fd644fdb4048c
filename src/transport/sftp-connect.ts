// Opening one SFTP session with ssh2-sftp-client, the host key checked against the pin, and
// turning ssh2's failures into settle's stable codes. Messages name host, port, user and
// fingerprints, never a password, passphrase or key.
import type SftpClient from 'ssh2-sftp-client';
import type { SFTPWrapper } from 'ssh2';
import { SettleError } from '../domain/errors.js';
import { redactText } from '../log/redact.js';
import type { Logger } from '../log/logger.js';
import { describeHostKey, type HostKeyInfo } from './host-key.js';

export interface SftpEndpoint {
  host: string;
  port: number;
}

export interface SftpCredentials extends SftpEndpoint {
  username: string;
  password?: string | undefined;
  /** The private key's text (OpenSSH or PEM), not a path: the composition root reads the file or credential. */
  privateKey?: string | Buffer | undefined;
  passphrase?: string | undefined;
  /** Normalised "SHA256:…" pin, or undefined when unpinned operation was allowed explicitly. */
  hostKeySha256: string | undefined;
  timeoutMs: number;
  logger: Logger;
}

/** One live session: the library client (lifecycle, events) and its raw SFTP channel (operations). */
export interface SftpConnection {
  client: SftpClient;
  sftp: SFTPWrapper;
  alive: boolean;
}

const FIRST_CONTACT_HINT =
  'run `settle sftp fingerprint HOST[:PORT]`, confirm the value with the server operator, and set it as sftp.hostKeySha256';

export function endpointText(endpoint: SftpEndpoint): string {
  return `${endpoint.host}:${endpoint.port}`;
}

/** Refusal of a server without a configured pin (raised before any network traffic). */
export function unpinnedError(endpoint: SftpEndpoint): SettleError {
  return new SettleError(
    'ERR_SFTP_HOST_KEY_UNPINNED',
    `Refusing to connect to SFTP server ${endpointText(endpoint)} without a pinned host key: ${FIRST_CONTACT_HINT}.`,
    { details: { host: endpoint.host, port: endpoint.port } },
  );
}

/**
 * The SFTP library, loaded when the first connection is opened: a configuration with local
 * folders only never loads ssh2, and every other command starts without it (start-up,
 * docs/performance.md).
 */
async function sftpClientClass(): Promise<typeof SftpClient> {
  return (await import('ssh2-sftp-client')).default;
}

/** Drops the socket at once, without waiting for the server (which may be gone or hung). */
function hardClose(client: SftpClient): void {
  // ssh2-sftp-client keeps the ssh2 Client as `.client` and an `endCalled` flag that silences
  // its global end/close handlers; its type declarations show neither.
  const internals = client as unknown as { endCalled: boolean; client?: { destroy?: () => void } };
  internals.endCalled = true;
  internals.client?.destroy?.();
}

/** Closes a session at once, without waiting for the server (which may be gone or hung). */
export function destroyConnection(connection: SftpConnection): void {
  connection.alive = false;
  hardClose(connection.client);
}

function levelOf(error: unknown): string | undefined {
  const level = (error as { level?: unknown } | null)?.level;
  return typeof level === 'string' ? level : undefined;
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function messageOf(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error));
}

interface ConnectFacts {
  endpoint: SftpEndpoint;
  username: string;
  pinned: string | undefined;
  presented: HostKeyInfo | undefined;
  timeoutMs: number;
}

/** Maps a failed connection attempt to a stable code. `raw` is ssh2's own error (it carries `level`). */
export function classifyConnectError(raw: unknown, facts: ConnectFacts): SettleError {
  const where = endpointText(facts.endpoint);
  const { presented, pinned } = facts;
  if (presented && pinned && presented.fingerprint !== pinned) {
    return new SettleError(
      'ERR_SFTP_HOST_KEY_MISMATCH',
      `Refused SFTP server ${where}: it presented host key ${presented.fingerprint} (${presented.keyType}) but ${pinned} is pinned. ` +
        'If the server key was changed on purpose, confirm the new fingerprint with its operator and update sftp.hostKeySha256; otherwise the connection may be intercepted.',
      {
        details: {
          host: facts.endpoint.host,
          port: facts.endpoint.port,
          expected: pinned,
          presented: presented.fingerprint,
        },
      },
    );
  }
  const level = levelOf(raw);
  const code = codeOf(raw);
  if (level === 'client-authentication') {
    return new SettleError(
      'ERR_SFTP_AUTH',
      `SFTP server ${where} refused authentication of user ${JSON.stringify(facts.username)}; check the user name, key or password configured for it.`,
      {
        cause: raw,
        details: { host: facts.endpoint.host, port: facts.endpoint.port, username: facts.username },
      },
    );
  }
  if (level === 'client-timeout' || code === 'ETIMEDOUT') {
    return new SettleError(
      'ERR_SFTP_TIMEOUT',
      `SFTP server ${where} did not complete the SSH handshake within ${facts.timeoutMs} ms.`,
      {
        cause: raw,
        details: { host: facts.endpoint.host, port: facts.endpoint.port, timeoutMs: facts.timeoutMs },
      },
    );
  }
  return new SettleError('ERR_SFTP_CONNECT', `Cannot connect to SFTP server ${where}: ${messageOf(raw)}`, {
    cause: raw,
    details: {
      host: facts.endpoint.host,
      port: facts.endpoint.port,
      code: typeof code === 'string' ? code : undefined,
    },
  });
}

/** Opens a session. The host key is checked during the handshake, before any credential is sent. */
export async function openSftpConnection(
  options: SftpCredentials,
  onLost: (connection: SftpConnection) => void,
): Promise<SftpConnection> {
  const endpoint = { host: options.host, port: options.port };
  const holder: { connection?: SftpConnection } = {};
  const lost = (why: string) => () => {
    if (holder.connection?.alive) {
      holder.connection.alive = false;
      options.logger.debug('sftp connection lost', { server: endpointText(endpoint), why });
      onLost(holder.connection);
    }
  };
  // Replaces the library's default callbacks, which print to the console.
  const client = new (await sftpClientClass())('settle', {
    error: lost('error'),
    end: lost('end'),
    close: lost('close'),
  });
  let presented: HostKeyInfo | undefined;
  let raw: unknown;
  const captureRaw = (error: unknown) => {
    raw ??= error;
  };
  client.on('error', captureRaw);
  const pinned = options.hostKeySha256;
  try {
    const sftp = await client.connect({
      host: options.host,
      port: options.port,
      username: options.username,
      ...(options.password === undefined ? {} : { password: options.password }),
      ...(options.privateKey === undefined ? {} : { privateKey: options.privateKey }),
      ...(options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
      tryKeyboard: false,
      readyTimeout: options.timeoutMs,
      // Keepalives notice a silently dead peer (NAT timeouts) instead of hanging forever.
      keepaliveInterval: Math.max(1000, Math.min(15_000, Math.floor(options.timeoutMs / 2))),
      keepaliveCountMax: 3,
      hostVerifier: (key: Buffer) => {
        presented = describeHostKey(key);
        if (pinned === undefined) {
          options.logger.warn('sftp host key NOT verified (allowUnpinned is set)', {
            server: endpointText(endpoint),
            hostKey: presented.fingerprint,
          });
          return true;
        }
        return presented.fingerprint === pinned;
      },
    });
    const connection: SftpConnection = { client, sftp, alive: true };
    holder.connection = connection;
    options.logger.debug('sftp connected', {
      server: endpointText(endpoint),
      user: options.username,
      hostKey: presented?.fingerprint,
    });
    return connection;
  } catch (error) {
    hardClose(client);
    throw classifyConnectError(raw ?? error, {
      endpoint,
      username: options.username,
      pinned,
      presented,
      timeoutMs: options.timeoutMs,
    });
  } finally {
    client.removeListener('error', captureRaw);
  }
}

/**
 * First contact: connects only far enough to see the server's host key, refuses it (so no
 * credential is ever sent) and returns its fingerprint and type for the operator to verify.
 */
export async function fetchHostKey(options: { host: string; port?: number; timeoutMs?: number }): Promise<HostKeyInfo> {
  const endpoint = { host: options.host, port: options.port ?? 22 };
  const timeoutMs = options.timeoutMs ?? 15_000;
  const client = new (await sftpClientClass())('settle-fingerprint', {
    error: () => undefined,
    end: () => undefined,
    close: () => undefined,
  });
  let presented: HostKeyInfo | undefined;
  let raw: unknown;
  const captureRaw = (error: unknown) => {
    raw ??= error;
  };
  client.on('error', captureRaw);
  try {
    await client.connect({
      host: endpoint.host,
      port: endpoint.port,
      username: 'settle-fingerprint',
      readyTimeout: timeoutMs,
      hostVerifier: (key: Buffer) => {
        presented = describeHostKey(key);
        return false;
      },
    });
  } catch (error) {
    if (presented) return presented;
    throw classifyConnectError(raw ?? error, {
      endpoint,
      username: 'settle-fingerprint',
      pinned: undefined,
      presented,
      timeoutMs,
    });
  } finally {
    client.removeListener('error', captureRaw);
    hardClose(client);
  }
  // Unreachable in practice: the verifier refuses every key, so connect cannot succeed.
  throw new SettleError(
    'ERR_SFTP_CONNECT',
    `SFTP server ${endpointText(endpoint)} completed a handshake without presenting a host key.`,
  );
}

/** "SHA256:…" of the server's host key, for `settle sftp fingerprint`. */
export async function fetchHostKeyFingerprint(options: {
  host: string;
  port?: number;
  timeoutMs?: number;
}): Promise<string> {
  return (await fetchHostKey(options)).fingerprint;
}
