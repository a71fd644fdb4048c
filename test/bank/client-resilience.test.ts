// Faults injected into the sandbox: token expiry mid-run, 5xx bursts, 429 with Retry-After,
// timeouts, a response lost after the bank committed.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { Secret } from '../../src/log/index.js';
import { bulk, company, SEED, startHarness, type Harness } from './helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const paymentsAtBank = async (harness: Harness): Promise<{ paymentId: string; idempotencyKey: string | null }[]> =>
  ((await harness.control('GET', '/payments')) as { payments: { paymentId: string; idempotencyKey: string | null }[] })
    .payments;

describe('tokens', () => {
  it('fetches one token for many concurrent calls and reuses it', async () => {
    h = await startHarness();
    const client = h.client;
    await Promise.all(Array.from({ length: 8 }, () => client.getAccount(company, SEED.operatingAccountId)));
    await client.getConsent(SEED.consentId);
    expect(client.tokens.fetches).toBe(1);
    expect(h.sandbox.sandbox.state.tokens.size).toBe(1);
  });

  it('recovers from a token that expired mid-run with one refresh and one retry', async () => {
    h = await startHarness();
    await h.client.getAccount(company, SEED.operatingAccountId);
    h.sandbox.advance(2 * 3_600_000); // the bank's clock passes the token's lifetime; ours does not
    const [a, b] = await Promise.all([
      h.client.getAccount(company, SEED.operatingAccountId),
      h.client.getConsent(SEED.consentId),
    ]);
    expect(a.id).toBe(SEED.operatingAccountId);
    expect(b.status).toBe('Authorized');
    expect(h.client.tokens.fetches).toBe(2);
    const unauthorized = h.logLines().filter((l) => l.status === 401);
    expect(unauthorized.length).toBeGreaterThanOrEqual(1);
  });

  it('refreshes a token shortly before it expires, without a 401', async () => {
    const clock = new ManualClock('2026-01-05T08:00:00Z');
    h = await startHarness({ client: { clock } });
    await h.client.getAccount(company, SEED.operatingAccountId);
    clock.advance(3_600_000 - 30_000);
    h.sandbox.advance(3_600_000 - 30_000);
    await h.client.getAccount(company, SEED.operatingAccountId);
    expect(h.client.tokens.fetches).toBe(2);
    expect(h.logLines().filter((l) => l.status === 401)).toEqual([]);
  });

  it('gives up after one refresh when the bank keeps refusing the token', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/consents/*', kind: 'error', status: 401, count: 5 }],
    });
    await expect(h.client.getConsent(SEED.consentId)).rejects.toMatchObject({
      code: 'ERR_BANK_UNAUTHORIZED',
      status: 401,
    });
    expect(h.client.tokens.fetches).toBe(2);
  });

  it('reports refused client credentials without revealing the secret', async () => {
    h = await startHarness({ client: { clientSecret: new Secret('wrong-secret-value') } });
    const error: unknown = await h.client.getConsent(SEED.consentId).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_BANK_AUTH_FAILED', exitCode: 2 });
    expect(String((error as Error).message)).toContain('invalid_client');
    expect(String((error as Error).message)).not.toContain('wrong-secret-value');
    expect(h.logText()).not.toContain('wrong-secret-value');
  });

  it('retries the token request through a 503 burst at the identity provider', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', { faults: [{ route: 'POST /id/**', kind: 'error', status: 503, count: 2 }] });
    await expect(h.client.getConsent(SEED.consentId)).resolves.toMatchObject({ status: 'Authorized' });
    expect(h.waits).toHaveLength(2);
    expect(h.client.tokens.fetches).toBe(1);
  });

  it('says which setting is missing when no secret is configured', async () => {
    h = await startHarness({ client: { clientSecret: undefined } });
    await expect(h.client.getConsent(SEED.consentId)).rejects.toMatchObject({
      code: 'ERR_BANK_NO_CREDENTIALS',
      exitCode: 2,
    });
  });
});

describe('retries', () => {
  it('rides out a burst of 503 on a read with growing, jittered waits', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/accounts/*', kind: 'error', status: 503, count: 3 }],
    });
    const account = await h.client.getAccount(company, SEED.operatingAccountId);
    expect(account.id).toBe(SEED.operatingAccountId);
    expect(h.waits).toEqual([100, 200, 400]); // random 0.5 × 200·2^n
  });

  it('stops after the configured retries with a retryable ERR_BANK_UNAVAILABLE', async () => {
    h = await startHarness({ client: { maxRetries: 2 } });
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/accounts/*', kind: 'error', status: 500, count: 10 }],
    });
    await expect(h.client.getAccount(company, SEED.operatingAccountId)).rejects.toMatchObject({
      code: 'ERR_BANK_UNAVAILABLE',
      status: 500,
      retryable: true,
    });
    expect(h.waits).toHaveLength(2);
  });

  it('honours Retry-After on 429', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/consents', kind: 'rateLimit', retryAfterSeconds: 3, count: 2 }],
    });
    const consents: string[] = [];
    for await (const c of h.client.listConsents()) consents.push(c.consentId);
    expect(consents).toContain(SEED.consentId);
    expect(h.waits).toEqual([3_000, 3_000]);
  });

  it('caps a Retry-After that is too long', async () => {
    h = await startHarness({ client: { retry: { maxRetryAfterMs: 1_500 } } });
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/consents/*', kind: 'rateLimit', retryAfterSeconds: 3600, count: 1 }],
    });
    await h.client.getConsent(SEED.consentId);
    expect(h.waits).toEqual([1_500]);
  });

  it('does not resend a POST without an Idempotency-Key after a 503', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, count: 1 }],
    });
    await expect(h.client.createBulkPayment(SEED.resourceGroupName, bulk(), {})).rejects.toMatchObject({
      code: 'ERR_BANK_UNAVAILABLE',
    });
    expect(h.waits).toEqual([]);
    expect(await paymentsAtBank(h)).toEqual([]);
  });

  it('retries a POST with its stable Idempotency-Key after a 503 and makes one payment', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, count: 2 }],
    });
    const key = randomUUID();
    const created = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), { idempotencyKey: key });
    expect(created).toMatchObject({ httpStatus: 201, replayed: false });
    expect((await paymentsAtBank(h)).map((p) => p.idempotencyKey)).toEqual([key]);
  });

  it('gives ERR_BANK_TIMEOUT when the bank does not answer in time', async () => {
    h = await startHarness({ client: { timeoutMs: 150, maxRetries: 1 } });
    await h.control('POST', '/faults', {
      faults: [{ route: 'GET /api/consents/*', kind: 'latency', latencyMs: 1_000, count: 5 }],
    });
    await expect(h.client.getConsent(SEED.consentId)).rejects.toMatchObject({
      code: 'ERR_BANK_TIMEOUT',
      retryable: true,
      outcomeUnknown: false,
    });
    expect(h.waits).toHaveLength(1);
  });
});

describe('idempotency', () => {
  it('recovers a response lost after the bank committed, without a second payment', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 1 }],
    });
    const key = randomUUID();
    const created = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), { idempotencyKey: key });
    expect(created).toMatchObject({ replayed: true, httpStatus: 200, transactionStatus: 'RCVD' });
    const atBank = await paymentsAtBank(h);
    expect(atBank).toHaveLength(1);
    expect(atBank[0]).toMatchObject({ paymentId: created.paymentId, idempotencyKey: key });
  });

  it('reports a lost response on a POST without a key as a network error and does not resend', async () => {
    h = await startHarness();
    await h.control('POST', '/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 1 }],
    });
    await expect(h.client.createBulkPayment(SEED.resourceGroupName, bulk(), {})).rejects.toMatchObject({
      code: 'ERR_BANK_NETWORK',
      outcomeUnknown: true,
    });
    expect(await paymentsAtBank(h)).toHaveLength(1); // the bank did commit: this is an unknown outcome for the caller
  });

  it('recognises a replay of an earlier request with the same key', async () => {
    h = await startHarness();
    const key = randomUUID();
    const first = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), { idempotencyKey: key });
    const second = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), { idempotencyKey: key });
    expect(first.replayed).toBe(false);
    expect(second).toMatchObject({ replayed: true, httpStatus: 200, paymentId: first.paymentId });
    expect(await paymentsAtBank(h)).toHaveLength(1);
  });
});

describe('versioning and logging', () => {
  it('warns once per client when the bank lists our api-version as deprecated', async () => {
    h = await startHarness({ client: { apiVersion: '0.9' } });
    for (let i = 0; i < 3; i++) await h.client.getConsent(SEED.consentId);
    const warnings = h.logLines().filter((l) => l.level === 'warn' && String(l.message).includes('deprecated'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ apiVersion: '0.9' });
  });

  it('does not warn for a supported version', async () => {
    h = await startHarness();
    await h.client.getConsent(SEED.consentId);
    expect(h.logLines().filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('logs method, path, status and duration at debug, never the token or the secret', async () => {
    h = await startHarness();
    await h.client.getAccount(company, SEED.operatingAccountId);
    const line = h.logLines().find((l) => l.path === `/api/accounts/${SEED.operatingAccountId}`);
    expect(line).toMatchObject({ level: 'debug', method: 'GET', status: 200 });
    expect(typeof line?.durationMs).toBe('number');
    const tokens = [...h.sandbox.sandbox.state.tokens.keys()];
    expect(tokens).toHaveLength(1);
    for (const secret of [...tokens, SEED.clientSecret]) expect(h.logText()).not.toContain(secret);
  });
});
