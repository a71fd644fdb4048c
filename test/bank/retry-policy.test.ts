import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
} from '../../src/bank/retry-policy.js';
import { Semaphore } from '../../src/bank/semaphore.js';

const policy: RetryPolicy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 30_000 };
const now = new Date('2026-01-05T08:00:00Z');

describe('retry policy', () => {
  it('draws the backoff uniformly up to base·2^attempt', () => {
    expect(backoffDelay(0, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
  });

  it('never waits longer than the maximum delay, however many attempts', () => {
    expect(backoffDelay(20, policy, () => 0.999)).toBe(999);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 05 Jan 2026 08:00:10 GMT', now)).toBe(10_000);
  });

  it('treats a Retry-After date in the past as no wait and garbage as absent', () => {
    expect(parseRetryAfter('Mon, 05 Jan 2026 07:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('honours Retry-After over backoff but caps it', () => {
    expect(retryDelay(0, policy, () => 0.5, 2_000)).toBe(2_000);
    expect(retryDelay(0, policy, () => 0.5, 3_600_000)).toBe(30_000);
    expect(retryDelay(1, policy, () => 0.5)).toBe(100);
  });

  it('retries throttling and server errors but not client errors or 501', () => {
    for (const s of [429, 500, 502, 503, 504]) expect(isRetryableStatus(s), String(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 409, 422, 501]) expect(isRetryableStatus(s), String(s)).toBe(false);
  });
});

describe('semaphore', () => {
  it('keeps at most the limit of tasks running and runs them all', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const task = async (): Promise<number> => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return 1;
    };
    const results = await Promise.all(Array.from({ length: 7 }, () => gate.run(task)));
    expect(results).toHaveLength(7);
    expect(peak).toBe(2);
    expect(gate.inFlight).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const gate = new Semaphore(1);
    await expect(gate.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(gate.run(() => Promise.resolve('ok'))).resolves.toBe('ok');
  });
});
