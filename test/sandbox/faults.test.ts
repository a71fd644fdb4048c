import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bulkBody, harness, SEED, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

describe('fault injection', () => {
  it('fails exactly the next N matching requests with the chosen status, then recovers', async () => {
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/accounts', kind: 'error', status: 503, count: 2 }],
    });
    expect((await h.call('GET', '/accounts')).status).toBe(503);
    const second = await h.call('GET', '/accounts');
    expect(second.status).toBe(503);
    expect(second.body.type).toMatch(/#service-unavailable$/);
    expect((await h.call('GET', '/accounts')).status).toBe(200);
    // Other routes were never affected.
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}`)).status).toBe(200);
  });

  it('answers 429 with Retry-After for a rate-limit fault', async () => {
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/accounts/*/transactions', kind: 'rateLimit', retryAfterSeconds: 7, count: 1 }],
    });
    const r = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-01&bookingStatus=booked`,
    );
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body.type).toMatch(/#too-many-requests$/);
  });

  it('loses the response of the next POST after committing it; a retry with the same key gets the stored 201 as a 200 replay', async () => {
    await h.control('POST', '/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 1 }],
    });
    const key = randomUUID();
    await expect(
      h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') }),
    ).rejects.toThrow();
    const atBank = (await h.control('GET', '/payments')).body.payments;
    expect(atBank).toHaveLength(1);
    expect(atBank[0].idempotencyKey).toBe(key);
    const retry = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.paymentId).toBe(atBank[0].paymentId);
    expect((await h.control('GET', '/payments')).body.payments).toHaveLength(1);
  });

  it('does not store an injected 5xx under the idempotency key: the retry does the work once', async () => {
    await h.control('POST', '/faults', { faults: [{ route: 'POST /api/bulk-payments/**', status: 500, count: 1 }] });
    const key = randomUUID();
    expect((await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') })).status).toBe(
      500,
    );
    expect((await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') })).status).toBe(
      201,
    );
    expect((await h.control('GET', '/payments')).body.payments).toHaveLength(1);
  });

  it('is deterministic for a given seed when a rate is used', async () => {
    const run = async (): Promise<number[]> => {
      h.reset();
      await h.control('POST', '/faults', { seed: 42, faults: [{ route: 'GET /api/banks', rate: 0.5 }] });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await h.call('GET', '/banks', { token: null })).status);
      return out;
    };
    const a = await run();
    expect(a).toContain(503);
    expect(a).toContain(200);
    expect(await run()).toEqual(a);
  });

  it('revokes every token on request, so the next call is 401 until a new token is fetched', async () => {
    const token = await h.token();
    expect((await h.call('GET', '/accounts', { token })).status).toBe(200);
    await h.control('POST', '/faults', { revokeTokens: true });
    expect((await h.call('GET', '/accounts', { token })).status).toBe(401);
    expect((await h.call('GET', '/accounts', { token: await h.token() })).status).toBe(200);
  });

  it('adds latency per route', async () => {
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/banks', kind: 'latency', latencyMs: 150, count: 1 }],
    });
    const t0 = performance.now();
    await h.call('GET', '/banks', { token: null });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('refuses a malformed fault with 400', async () => {
    expect((await h.control('POST', '/faults', { faults: [{ route: 'accounts' }] })).status).toBe(400);
    expect((await h.control('POST', '/faults', { faults: [{ route: '/api/x', kind: 'explode' }] })).status).toBe(400);
  });
});
