// The one error type of settle. Every error a user or operator can see carries a stable `code`
// from the catalogue (src/domain/error-catalogue.ts, explained in docs/errors.md) and the process
// exit code the catalogue gives it. Callers branch on `code`, never on the message.
import { errorCatalogue, type ErrorCode } from './error-catalogue.js';

export { ExitCode, isErrorCode, type ErrorCode } from './error-catalogue.js';
import type { ExitCode } from './error-catalogue.js';

export interface SettleErrorOptions {
  cause?: unknown;
  /** Extra machine-readable facts; must never hold secrets. */
  details?: Record<string, unknown>;
}

export class SettleError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: SettleErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SettleError';
    this.code = code;
    this.exitCode = errorCatalogue[code].exit;
    this.details = options.details;
  }
}

export function isSettleError(error: unknown, code?: ErrorCode): error is SettleError {
  return error instanceof SettleError && (code === undefined || error.code === code);
}
