// The API subscription's rate limit, as a bank enforces it: a token bucket over every request
// of the bank API (all clients and instances together), `perSecond` tokens a second with a
// burst of one second's worth. A request that finds the bucket empty is answered 429 with
// Retry-After in whole seconds (RFC 9110 §10.2.3), never served late.
export class RateLimit {
  private tokens: number;
  private last = performance.now();
  /** Requests answered 429. */
  refused = 0;
  /** Requests let through. */
  served = 0;

  constructor(readonly perSecond: number) {
    this.tokens = perSecond;
  }

  /** Takes a token; when none is left, the whole seconds until one is (for Retry-After). */
  take(): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const now = performance.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.served++;
      return { ok: true };
    }
    this.refused++;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.perSecond)) };
  }
}
