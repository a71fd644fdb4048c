// What a sandbox can be told at start. Every timing is in sandbox-clock milliseconds unless
// said otherwise; defaults are documented in docs/sandbox.md.
import type { Logger } from '../log/index.js';
import type { BureauOptions } from './bureau.js';

export interface SandboxOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Extra real-time delay before every answer, in real ms. */
  latencyMs?: number;
  /** The sandbox clock's start instant (default 2026-01-05T08:00:00Z, a Monday). */
  start?: Date | string;
  /**
   * The clock starts at the real time and moves with it (a sandbox started by hand), besides
   * being moved on by the control API. Default off: tests and the demo move time themselves.
   */
  followRealTime?: boolean;
  /** Items per page on every list (default 25). */
  pageSize?: number;
  /** How long an idempotent response is kept (default 24 h of sandbox time). */
  idempotencyRetentionMs?: number;
  /** RCVD → ACSP delay after a payment is released (default 60 s). */
  processingDelayMs?: number;
  /** Token lifetime in seconds (default 3600, spec §5). */
  tokenLifetimeSeconds?: number;
  /** Largest number of lines in one bulk payment (default 1000). */
  maxPaymentLines?: number;
  /** Seed for fault and webhook randomness, so a run can be repeated. */
  randomSeed?: number;
  /** The API subscription's rate limit in requests per real second (default none): beyond it, 429 with Retry-After. */
  rateLimitPerSecond?: number;
  /** A bureau's organisations besides the seed's (src/sandbox/bureau.ts). */
  bureau?: BureauOptions;
  /** Real-time base delay of webhook retries (default 200 ms, doubling). */
  webhookRetryBaseMs?: number;
  logger?: Logger;
}

export interface ResolvedOptions {
  latencyMs: number;
  start: string;
  followRealTime: boolean;
  pageSize: number;
  idempotencyRetentionMs: number;
  processingDelayMs: number;
  tokenLifetimeSeconds: number;
  maxPaymentLines: number;
  randomSeed: number;
  webhookRetryBaseMs: number;
  rateLimitPerSecond: number | undefined;
  bureau: BureauOptions | undefined;
}

export function resolveOptions(o: SandboxOptions): ResolvedOptions {
  return {
    latencyMs: o.latencyMs ?? 0,
    start: new Date(o.start ?? (o.followRealTime ? Date.now() : '2026-01-05T08:00:00Z')).toISOString(),
    followRealTime: o.followRealTime ?? false,
    pageSize: o.pageSize ?? 25,
    idempotencyRetentionMs: o.idempotencyRetentionMs ?? 24 * 3_600_000,
    processingDelayMs: o.processingDelayMs ?? 60_000,
    tokenLifetimeSeconds: o.tokenLifetimeSeconds ?? 3600,
    maxPaymentLines: o.maxPaymentLines ?? 1000,
    randomSeed: o.randomSeed ?? 1,
    webhookRetryBaseMs: o.webhookRetryBaseMs ?? 200,
    rateLimitPerSecond: o.rateLimitPerSecond,
    bureau: o.bureau,
  };
}
