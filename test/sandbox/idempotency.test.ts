import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bulkBody, harness, SEED, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ idempotencyRetentionMs: 3_600_000 });
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

const countPayments = async (): Promise<number> => (await h.control('GET', '/payments')).body.payments.length;

describe('Idempotency-Key on POST', () => {
  it('replays the first response with 200 and Idempotent-Replayed: true, creating one payment only', async () => {
    const key = randomUUID();
    const first = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countPayments()).toBe(1);
  });

  it('treats a body with the same content in another key order as the same request', async () => {
    const key = randomUUID();
    await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    const reordered = Object.fromEntries(Object.entries(bulkBody('2026-01-07')).reverse());
    const again = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: reordered });
    expect(again.status).toBe(200);
    expect(await countPayments()).toBe(1);
  });

  it('refuses the same key with a different body with 422 and never makes a second payment', async () => {
    const key = randomUUID();
    await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    const other = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-08') });
    expect(other.status).toBe(422);
    expect(other.body.type).toMatch(/#idempotency-key-reused$/);
    expect(await countPayments()).toBe(1);
  });

  it('stores a failure too: a replay of a 400 is the same 400, marked replayed', async () => {
    const key = randomUUID();
    const bad = bulkBody('2026-01-05');
    const first = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bad });
    expect(first.status).toBe(400);
    const again = await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bad });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.traceId).toBe(first.body.traceId);
  });

  it('refuses a key that is not a UUID with 400 before doing any work', async () => {
    const r = await h.call('POST', '/bulk-payments/credit-transfer', { key: 'order-42', body: bulkBody('2026-01-07') });
    expect(r.status).toBe(400);
    expect(await countPayments()).toBe(0);
  });

  it('forgets a key after the retention window, so the same key then creates a new payment', async () => {
    const key = randomUUID();
    await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    h.sb.advance(3_600_001);
    const later = await h.call('POST', '/bulk-payments/credit-transfer', {
      key,
      token: await h.token(),
      body: bulkBody('2026-01-07'),
    });
    expect(later.status).toBe(201);
    expect(await countPayments()).toBe(2);
  });

  it('keeps keys per client: another client using the same key gets its own answer', async () => {
    const key = randomUUID();
    await h.call('POST', '/bulk-payments/credit-transfer', { key, body: bulkBody('2026-01-07') });
    const other = await h.token(SEED.otherClientId, SEED.otherClientSecret);
    const r = await h.call('POST', '/bulk-payments/credit-transfer', {
      key,
      token: other,
      headers: { 'subscription-id': SEED.otherSubscriptionId, 'resource-group-name': SEED.otherResourceGroupName },
      body: bulkBody('2026-01-07', 1, { debtorAccount: { iban: SEED.otherIban } }),
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('idempotent-replayed')).toBeNull();
  });

  it('applies to every POST, e.g. signing baskets', async () => {
    const pay = await h.call('POST', '/bulk-payments/credit-transfer', {
      body: bulkBody('2026-01-07', 1, { debtorAccount: { iban: SEED.approvalIban } }),
    });
    const key = randomUUID();
    const a = await h.call('POST', '/signing-baskets', { key, body: { paymentIds: [pay.body.paymentId] } });
    const b = await h.call('POST', '/signing-baskets', { key, body: { paymentIds: [pay.body.paymentId] } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(200);
    expect(b.body.basketId).toBe(a.body.basketId);
  });
});
