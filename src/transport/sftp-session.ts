// One SFTP session at a time for a store: opened lazily, reused, replaced after it drops.
// Every store operation runs through `run`, which bounds it in time, maps server answers to
// settle's codes, and retries it once on a fresh session when the old one dropped and
// repeating it is harmless.
import { SettleError, isSettleError } from '../domain/errors.js';
import { redactText } from '../log/redact.js';
import type { Logger } from '../log/logger.js';
import { destroyConnection, openSftpConnection, type SftpConnection, type SftpCredentials } from './sftp-connect.js';

// SFTP status codes (draft-ietf-secsh-filexfer-02), as ssh2 reports them in `error.code`.
export const END_OF_FILE = 1;
export const NO_SUCH_FILE = 2;
export const PERMISSION_DENIED = 3;
export const FAILURE = 4;

export function call<T = void>(
  start: (callback: (error: Error | null | undefined, value?: T) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    start((error, value) => (error ? reject(error) : resolve(value as T)));
  });
}

export function statusOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

export interface RunOptions {
  /** Safe to repeat after a dropped session (everything but writing from a one-shot stream). */
  idempotent: boolean;
  /** Bound by timeoutMs (default true); streamed transfers rely on keepalives instead. */
  timed?: boolean;
}

export class SftpSession {
  private current: SftpConnection | undefined;
  private connecting: Promise<SftpConnection> | undefined;
  private closed = false;

  constructor(
    private readonly credentials: SftpCredentials,
    private readonly logger: Logger,
    private readonly description: string,
  ) {}

  private connection(): Promise<SftpConnection> {
    if (this.closed) return Promise.reject(new SettleError('ERR_FILE_IO', `${this.description} is closed.`));
    if (this.current?.alive) return Promise.resolve(this.current);
    this.connecting ??= openSftpConnection(this.credentials, (lost) => this.forget(lost))
      .then((connection) => {
        this.current = connection;
        return connection;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  private forget(connection: SftpConnection): void {
    if (this.current === connection) this.current = undefined;
  }

  private drop(connection: SftpConnection): void {
    this.forget(connection);
    destroyConnection(connection);
  }

  private isConnectionLoss(error: unknown, connection: SftpConnection): boolean {
    if (!connection.alive) return true;
    if (typeof statusOf(error) === 'number') return false; // an answer from the server
    const text = error instanceof Error ? error.message : String(error);
    return /no response from server|not connected|unexpected (end|close)|econnreset|epipe|channel (is )?(not open|closed)|no sftp connection/i.test(
      text,
    );
  }

  fail(operation: string, path: string, error: unknown): SettleError {
    if (isSettleError(error)) return error;
    const where = `${this.description}${path === '' ? '' : (this.description.endsWith('/') ? '' : '/') + path}`;
    const status = statusOf(error);
    if (status === NO_SUCH_FILE) {
      return new SettleError('ERR_FILE_NOT_FOUND', `${operation}: ${where} does not exist.`, {
        cause: error,
        details: { path },
      });
    }
    const reason =
      status === PERMISSION_DENIED
        ? 'permission denied'
        : redactText(error instanceof Error ? error.message : String(error));
    return new SettleError('ERR_FILE_IO', `${operation} failed on ${where}: ${reason}`, {
      cause: error,
      details: { path, status },
    });
  }

  /** Runs one operation on a live session: time-limited, retried once after a dropped session when `idempotent`. */
  async run<T>(
    operation: string,
    path: string,
    options: RunOptions,
    work: (connection: SftpConnection, attempt: number) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const connection = await this.connection();
      try {
        const pending = work(connection, attempt);
        return options.timed === false ? await pending : await this.timed(operation, path, pending, connection);
      } catch (error) {
        if (isSettleError(error)) throw error;
        if (!this.isConnectionLoss(error, connection)) throw this.fail(operation, path, error);
        this.drop(connection);
        if (options.idempotent && attempt === 1) {
          this.logger.warn('sftp connection dropped; reconnecting and retrying once', {
            store: this.description,
            operation,
            path,
          });
          continue;
        }
        throw this.dropped(operation, path, error);
      }
    }
  }

  private dropped(operation: string, path: string, error: unknown): SettleError {
    return new SettleError(
      'ERR_SFTP_CONNECT',
      `The connection to ${this.description} dropped during ${operation} of ${path || '.'}.`,
      {
        cause: error,
        details: { operation, path },
      },
    );
  }

  /** The error to put on a stream that failed after `run` returned it (it cannot be retried). */
  streamError(operation: string, path: string, error: unknown, connection: SftpConnection): SettleError {
    if (isSettleError(error)) return error;
    if (!this.isConnectionLoss(error, connection)) return this.fail(operation, path, error);
    this.drop(connection);
    return this.dropped(operation, path, error);
  }

  private async timed<T>(operation: string, path: string, pending: Promise<T>, connection: SftpConnection): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = this.credentials.timeoutMs;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        // The session's state is unknown after a hang: drop it so the next call starts clean.
        this.drop(connection);
        reject(
          new SettleError(
            'ERR_SFTP_TIMEOUT',
            `${operation} of ${path || '.'} on ${this.description} took longer than ${limit} ms.`,
            { details: { operation, path, timeoutMs: limit } },
          ),
        );
      }, limit);
    });
    pending.catch(() => undefined); // it may still fail after the timeout won
    try {
      return await Promise.race([pending, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.current ?? (await this.connecting?.catch(() => undefined));
    this.current = undefined;
    if (!connection?.alive) return;
    connection.alive = false;
    // A polite end, but never wait long for a server that stopped answering.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      connection.client.end().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.min(this.credentials.timeoutMs, 5000));
      }),
    ]);
    clearTimeout(timer);
    destroyConnection(connection);
  }
}
