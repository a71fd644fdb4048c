// The one error type of settle. Every error a user or operator can see carries a stable `code`
// from the catalogue (src/domain/error-catalogue.ts, explained in docs/errors.md) and the process
// exit code the catalogue gives it. Callers branch on `code`, never on the message.
import { errorCatalogue, type ErrorCode } from './error-catalogue.js';
import type { RecordedValue } from './recorded-text.js';

export { ExitCode, isErrorCode, type ErrorCode } from './error-catalogue.js';
import type { ExitCode } from './error-catalogue.js';

export interface SettleErrorOptions {
  cause?: unknown;
  /** Extra machine-readable facts; must never hold secrets. */
  details?: Record<string, unknown>;
  /**
   * The values of the code's sentence for people (`refusal.<code>` in src/i18n/messages/refusal.ts),
   * so that the refusal reads in the reader's language; the English `message` stays what logs,
   * `--json` and English readers get. Absent: the sentence says what the code means, and the
   * English message follows it as the detail.
   */
  values?: Readonly<Record<string, RecordedValue>>;
}

export class SettleError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown> | undefined;
  readonly values: Readonly<Record<string, RecordedValue>> | undefined;

  constructor(code: ErrorCode, message: string, options: SettleErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SettleError';
    this.code = code;
    this.exitCode = errorCatalogue[code].exit;
    this.details = options.details;
    this.values = options.values;
  }
}

export function isSettleError(error: unknown, code?: ErrorCode): error is SettleError {
  return error instanceof SettleError && (code === undefined || error.code === code);
}
