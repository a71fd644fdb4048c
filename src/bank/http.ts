// One HTTP exchange with the bank, made robust: keep-alive pool (undici Agent), api-version on
// every call, Bearer token with one refresh-and-retry on 401, timeouts, bounded concurrency,
// retries of network errors, 5xx and 429 with backoff + jitter honouring Retry-After — but a
// request that could create something twice (POST, PUT refresh) is retried only when it carries
// the caller's stable Idempotency-Key. Problem details become BankErrors (bank-error.ts).
import { Agent, request, type Dispatcher } from 'undici';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/index.js';
import { DEFAULT_ANSWER_LIMITS, readBounded, type AnswerKind } from './answer-limits.js';
import { BankError, BANK_ERROR_CODES, errorFromResponse } from './bank-error.js';
import {
  isNetworkError,
  isNotSent,
  isRetryableStatus,
  parseRetryAfter,
  realSleep,
  retryDelay,
  type RetryPolicy,
  type Sleep,
} from './retry-policy.js';
import { Semaphore } from './semaphore.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface HttpRequest {
  method: Method;
  /** Path below the API base URL, e.g. `/accounts`; or `url` for an absolute address. */
  path?: string;
  url?: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string | undefined>;
  json?: unknown;
  form?: Record<string, string>;
  auth: boolean;
  idempotencyKey?: string;
  /** The request may be repeated without effect even though its method is not safe (token POST). */
  retrySafe?: boolean;
  /** Return 4xx answers to the caller instead of throwing (the token endpoint's OAuth errors). */
  pass4xx?: boolean;
  /** Which size limit the answer is read under (answer-limits.ts); default `resource`. */
  answer?: AnswerKind;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The bank answered from its idempotency store (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

export interface TokenSource {
  get(): Promise<string>;
  invalidate(token: string): void;
}

export interface BankHttpOptions {
  baseUrl: string;
  apiVersion: string;
  timeoutMs: number;
  retry: RetryPolicy;
  concurrency: number;
  logger: Logger;
  clock: Clock;
  sleep?: Sleep;
  random?: () => number;
  dispatcher?: Dispatcher;
  /** Called with the code of every error this client gives up on. */
  onError?: (code: string) => void;
  /** Size limits per kind of answer, in bytes; default DEFAULT_ANSWER_LIMITS. */
  answerLimits?: Partial<Record<AnswerKind, number>>;
}

export class BankHttp {
  tokens: TokenSource | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private readonly limit: Semaphore;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private deprecationWarned = false;

  constructor(readonly options: BankHttpOptions) {
    this.ownDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        connections: options.concurrency,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    this.limit = new Semaphore(options.concurrency);
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  async close(): Promise<void> {
    if (this.ownDispatcher) await this.dispatcher.close();
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const url = this.urlOf(req);
    const path = new URL(url).pathname;
    const repeatable =
      req.method === 'GET' || req.method === 'DELETE' || req.retrySafe === true || req.idempotencyKey !== undefined;
    const changesState = (req.method === 'POST' || req.method === 'PUT') && req.retrySafe !== true;
    const { maxRetries } = this.options.retry;
    let refreshedAfter401 = false;
    for (let attempt = 0; ; attempt++) {
      const token = req.auth ? await this.token() : undefined;
      let response: HttpResponse;
      try {
        response = await this.limit.run(() => this.once(req, url, path, token, attempt));
      } catch (error) {
        if (req.signal?.aborted) throw error;
        const failure = networkFailure(error, req.method, path, this.options.timeoutMs, changesState);
        // Without a stable key a POST that may have reached the bank is never sent again.
        if (attempt < maxRetries && (repeatable || isNotSent(error)) && failure.retryable) {
          const wait = retryDelay(attempt, this.options.retry, this.random);
          this.options.logger.warn('bank request failed; retrying', {
            method: req.method,
            path,
            attempt: attempt + 1,
            waitMs: wait,
            error: failure.code,
          });
          await this.sleep(wait, req.signal);
          continue;
        }
        this.options.onError?.(failure.code);
        throw failure;
      }
      if (response.status === 401 && token !== undefined && !refreshedAfter401 && this.tokens) {
        // An expired or revoked token: one fresh token and one more try (spec §5, architecture §5).
        refreshedAfter401 = true;
        this.tokens.invalidate(token);
        attempt--;
        continue;
      }
      if (response.status < 400 || (req.pass4xx === true && response.status < 500 && response.status !== 429))
        return response;
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.options.clock.now());
      // A 409 to a keyed POST that is not itself a replay most likely means "the first request
      // with this key is still being processed": wait and ask again, the answer will be a replay.
      const inFlight = response.status === 409 && req.idempotencyKey !== undefined && !response.replayed;
      if (attempt < maxRetries && repeatable && (isRetryableStatus(response.status) || inFlight)) {
        const wait = retryDelay(attempt, this.options.retry, this.random, retryAfterMs);
        this.options.logger.warn('bank answered with a retryable status; retrying', {
          method: req.method,
          path,
          status: response.status,
          attempt: attempt + 1,
          waitMs: wait,
        });
        await this.sleep(wait, req.signal);
        continue;
      }
      const headerTraceId = traceIdOf(response.headers);
      const error = errorFromResponse(response.status, response.body, {
        method: req.method,
        path,
        changesState,
        ...(headerTraceId ? { headerTraceId } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
      this.options.onError?.(error.code);
      throw error;
    }
  }

  private async token(): Promise<string> {
    if (!this.tokens) throw new BankError(BANK_ERROR_CODES.noCredentials, 'the bank client has no token source');
    return this.tokens.get();
  }

  private urlOf(req: HttpRequest): string {
    const url = new URL(req.url ?? `${this.baseUrl}${req.path ?? ''}`);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value as readonly string[]) url.searchParams.append(key, item);
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async once(
    req: HttpRequest,
    url: string,
    path: string,
    token: string | undefined,
    attempt: number,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', 'api-version': this.options.apiVersion };
    for (const [name, value] of Object.entries(req.headers ?? {}))
      if (value !== undefined) headers[name.toLowerCase()] = value;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (req.idempotencyKey !== undefined) headers['idempotency-key'] = req.idempotencyKey;
    let body: string | undefined;
    if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    }
    const started = performance.now();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const res = await request(url, { method: req.method, headers, body, dispatcher: this.dispatcher, signal });
    const kind = req.answer ?? 'resource';
    const changesState = (req.method === 'POST' || req.method === 'PUT') && req.retrySafe !== true;
    const text = await readBounded(res.body, headerOf(res.headers['content-length']), {
      kind,
      limit: this.options.answerLimits?.[kind] ?? DEFAULT_ANSWER_LIMITS[kind],
      method: req.method,
      path,
      changesState,
    });
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const parsed = parseBody(text, res.statusCode, req.method, path, changesState);
    const replayed = /^true$/i.test(responseHeaders['idempotent-replayed'] ?? '');
    this.checkDeprecation(responseHeaders);
    // Method, path, status, timing and trace id only: never headers or bodies (tokens, secrets).
    this.options.logger.debug('bank request', {
      method: req.method,
      path,
      status: res.statusCode,
      durationMs: Math.round(performance.now() - started),
      attempt,
      traceId: traceIdOf(responseHeaders) ?? problemTraceId(parsed),
      ...(replayed ? { replayed } : {}),
    });
    return { status: res.statusCode, headers: responseHeaders, body: parsed, replayed };
  }

  private checkDeprecation(headers: Record<string, string>): void {
    if (this.deprecationWarned) return;
    const deprecated = (headers['api-deprecated-versions'] ?? '').split(',').map((v) => v.trim());
    if (!deprecated.includes(this.options.apiVersion)) return;
    this.deprecationWarned = true;
    this.options.logger.warn(
      `the bank lists api-version ${this.options.apiVersion} as deprecated; plan the move to a supported version`,
      {
        apiVersion: this.options.apiVersion,
        supported: headers['api-supported-versions'],
      },
    );
  }
}

function parseBody(text: string, status: number, method: string, path: string, changesState: boolean): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (status >= 400) return text; // an error page from a proxy: still an error, with its status
    throw new BankError(
      BANK_ERROR_CODES.invalidResponse,
      `the bank answered ${status} to ${method} ${path} with a body that is not JSON`,
      // A 2xx to a POST that cannot be read: the bank may have done the work.
      { status, outcomeUnknown: changesState },
    );
  }
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function traceIdOf(headers: Record<string, string>): string | undefined {
  return headers['traceparent'] ?? headers['x-trace-id'] ?? headers['request-id'] ?? headers['x-request-id'];
}

function problemTraceId(body: unknown): string | undefined {
  const id = (body as { traceId?: unknown } | null | undefined)?.traceId;
  return typeof id === 'string' ? id : undefined;
}

function networkFailure(
  error: unknown,
  method: string,
  path: string,
  timeoutMs: number,
  changesState: boolean,
): BankError {
  if (error instanceof BankError) return error;
  const outcomeUnknown = changesState && !isNotSent(error);
  const name = (error as { name?: unknown } | null)?.name;
  const code = (error as { code?: unknown } | null)?.code;
  if (
    name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return new BankError(
      BANK_ERROR_CODES.timeout,
      `no answer from the bank to ${method} ${path} within ${timeoutMs} ms`,
      { retryable: true, method, path, cause: error, outcomeUnknown },
    );
  }
  const why = typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
  return new BankError(
    BANK_ERROR_CODES.network,
    `the connection to the bank failed during ${method} ${path} (${why})`,
    {
      retryable: isNetworkError(error),
      outcomeUnknown,
      method,
      path,
      cause: error,
    },
  );
}
