// Errors of the bank client: problem details (RFC 7807, spec §2.1/§7) become a BankError with a
// stable code callers branch on. `retryable` says whether the same request may succeed later.
import { SettleError } from '../domain/errors.js';

export const BANK_ERROR_CODES = {
  badRequest: 'ERR_BANK_BAD_REQUEST',
  unauthorized: 'ERR_BANK_UNAUTHORIZED',
  forbidden: 'ERR_BANK_FORBIDDEN',
  notFound: 'ERR_BANK_NOT_FOUND',
  conflict: 'ERR_BANK_CONFLICT',
  unprocessable: 'ERR_BANK_UNPROCESSABLE',
  rejected: 'ERR_BANK_REQUEST_REJECTED',
  rateLimited: 'ERR_BANK_RATE_LIMITED',
  unavailable: 'ERR_BANK_UNAVAILABLE',
  timeout: 'ERR_BANK_TIMEOUT',
  network: 'ERR_BANK_NETWORK',
  invalidResponse: 'ERR_BANK_INVALID_RESPONSE',
  authFailed: 'ERR_BANK_AUTH_FAILED',
  noCredentials: 'ERR_BANK_NO_CREDENTIALS',
  eventInvalid: 'ERR_BANK_EVENT_INVALID',
  answerTooLarge: 'ERR_BANK_ANSWER_TOO_LARGE',
} as const;
export type BankErrorCode = (typeof BANK_ERROR_CODES)[keyof typeof BANK_ERROR_CODES];

export interface ProblemFields {
  status?: number;
  type?: string;
  title?: string;
  detail?: string;
  traceId?: string;
  instance?: string;
  /** The problem's per-field list (`errors: [{field, message}]`), when the bank gave one. */
  fieldErrors?: readonly FieldError[];
}

/** One entry of a validation problem's `errors` list; `field` is a request path like `paymentLines[2].creditorName`. */
export interface FieldError {
  field: string;
  message: string;
}

export interface BankErrorOptions extends ProblemFields {
  retryable?: boolean;
  method?: string;
  path?: string;
  /** Milliseconds the bank asked us to wait (Retry-After), when it said. */
  retryAfterMs?: number;
  /** No answer arrived to a request that may have changed something at the bank. */
  outcomeUnknown?: boolean;
  cause?: unknown;
}

export class BankError extends SettleError {
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly traceId: string | undefined;
  readonly fieldErrors: readonly FieldError[];
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  /**
   * True when a POST or PUT got no answer (network failure, timeout): the bank may have done
   * the work. Never resend it blind; resolve it by its Idempotency-Key or by looking it up
   * (architecture §2.3).
   */
  readonly outcomeUnknown: boolean;

  constructor(code: BankErrorCode, message: string, options: BankErrorOptions = {}) {
    super(code, message, {
      cause: options.cause,
      details: {
        status: options.status,
        type: options.type,
        title: options.title,
        traceId: options.traceId,
        method: options.method,
        path: options.path,
      },
    });
    this.name = 'BankError';
    this.status = options.status;
    this.type = options.type;
    this.title = options.title;
    this.detail = options.detail;
    this.traceId = options.traceId;
    this.fieldErrors = options.fieldErrors ?? [];
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

export function isBankError(error: unknown, code?: BankErrorCode): error is BankError {
  return error instanceof BankError && (code === undefined || error.code === code);
}

/** The code for an HTTP error status. */
export function codeForStatus(status: number): BankErrorCode {
  if (status === 400) return BANK_ERROR_CODES.badRequest;
  if (status === 401) return BANK_ERROR_CODES.unauthorized;
  if (status === 403) return BANK_ERROR_CODES.forbidden;
  if (status === 404) return BANK_ERROR_CODES.notFound;
  if (status === 409) return BANK_ERROR_CODES.conflict;
  if (status === 422) return BANK_ERROR_CODES.unprocessable;
  if (status === 429) return BANK_ERROR_CODES.rateLimited;
  if (status === 504 || status === 408) return BANK_ERROR_CODES.timeout;
  if (status >= 500) return BANK_ERROR_CODES.unavailable;
  return BANK_ERROR_CODES.rejected;
}

/** Reads a problem-details body tolerantly: every field is optional and may be null. */
export function readProblem(body: unknown): ProblemFields {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return {};
  const o = body as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const out: ProblemFields = {};
  const type = str(o.type);
  const title = str(o.title);
  const detail = str(o.detail);
  const traceId = str(o.traceId) ?? str(o.traceid) ?? str(o.trace_id);
  const instance = str(o.instance);
  if (typeof o.status === 'number') out.status = o.status;
  if (type) out.type = type;
  if (title) out.title = title;
  if (detail) out.detail = detail;
  if (traceId) out.traceId = traceId;
  if (instance) out.instance = instance;
  const fieldErrors = Array.isArray(o.errors) ? o.errors.map(readFieldError).filter((e) => e !== undefined) : [];
  if (fieldErrors.length > 0) out.fieldErrors = fieldErrors;
  return out;
}

function readFieldError(value: unknown): FieldError | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { field, message } = value as Record<string, unknown>;
  if (typeof message !== 'string' || message === '') return undefined;
  return { field: typeof field === 'string' ? field : '', message };
}

/** The error for a non-2xx answer, its message one sentence an operator can read. */
export function errorFromResponse(
  status: number,
  body: unknown,
  request: { method: string; path: string; headerTraceId?: string; retryAfterMs?: number; changesState?: boolean },
): BankError {
  const problem = readProblem(body);
  const code = codeForStatus(status);
  const what = problem.title ?? `HTTP ${status}`;
  const detail = problem.detail ? `: ${problem.detail}` : '';
  const traceId = problem.traceId ?? request.headerTraceId;
  const trace = traceId ? ` (traceId ${traceId})` : '';
  const retryable = status === 429 || status >= 500 || status === 408;
  const options: BankErrorOptions = { ...problem, status, retryable, method: request.method, path: request.path };
  // A gateway timeout says nothing about whether the bank behind it did the work.
  if (status === 504 && request.changesState === true) options.outcomeUnknown = true;
  if (traceId) options.traceId = traceId;
  if (request.retryAfterMs !== undefined) options.retryAfterMs = request.retryAfterMs;
  return new BankError(
    code,
    `bank answered ${status} ${what} to ${request.method} ${request.path}${detail}${trace}`,
    options,
  );
}
