// The one error type of settle. Every error a user or operator can see carries a stable
// `code` (listed in docs/errors.md, kept in sync by test/docs/errors-catalog.test.ts) and the
// process exit code it maps to. Callers branch on `code`, never on the message.

/**
 * Exit codes of the CLI (docs/errors.md): 0 ok, 1 findings or invalid input, 2 usage or
 * configuration, 3 runtime failure, 4 already running (every unit asked for is held elsewhere).
 */
export const ExitCode = { ok: 0, findings: 1, usage: 2, runtime: 3, alreadyRunning: 4 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface SettleErrorOptions {
  exitCode?: ExitCode;
  cause?: unknown;
  /** Extra machine-readable facts; must never hold secrets. */
  details?: Record<string, unknown>;
}

export class SettleError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: SettleErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SettleError';
    this.code = code;
    this.exitCode = options.exitCode ?? ExitCode.runtime;
    this.details = options.details;
  }
}

export function isSettleError(error: unknown, code?: string): error is SettleError {
  return error instanceof SettleError && (code === undefined || error.code === code);
}
