import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bulkBody, harness, SEED, type Harness, type Json } from './helpers.js';

interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let h: Harness;
let server: Server;
let url: string;
let received: Received[];
let failNext = 0;

beforeAll(async () => {
  h = await harness({ webhookRetryBaseMs: 10 });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body });
      res.statusCode = failNext > 0 ? (failNext--, 500) : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await h.close();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  h.reset();
  received = [];
  failNext = 0;
});
afterEach(async () => h.sb.sandbox.events.idle());

const events = (): Json[] =>
  received
    .filter((r) => r.method === 'POST' && !r.headers['webhook-request-callback'])
    .flatMap((r) => {
      const parsed = JSON.parse(r.body || 'null');
      return Array.isArray(parsed) ? parsed : [parsed];
    });

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 20));
  await h.sb.sandbox.events.idle();
}

async function subscribe(delivery: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Json> {
  const r = await h.control('POST', '/subscriptions', {
    name: 'test',
    validation: 'skip',
    delivery: { url, ...delivery },
    ...extra,
  });
  expect(r.status).toBe(201);
  return r.body;
}

async function settledPayment(): Promise<string> {
  const r = await h.call('POST', '/bulk-payments/credit-transfer', { body: bulkBody('2026-01-06') });
  h.sb.advance(2 * 86_400_000);
  await settle();
  return r.body.paymentId;
}

describe('webhook subscriptions', () => {
  it('sends a validation handshake and delivers nothing until the validation URL is called', async () => {
    const sub = (await h.control('POST', '/subscriptions', { delivery: { url } })).body;
    expect(sub.status).toBe('pending');
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const handshake = received[0]!;
    expect(handshake.method).toBe('POST');
    const callback = handshake.headers['webhook-request-callback'] as string;
    expect(callback).toBe(sub.validationUrl);
    await settledPayment();
    expect(events()).toHaveLength(0);
    expect((await fetch(callback)).status).toBe(200);
    await h.call('POST', '/bulk-payments/credit-transfer', { token: await h.token(), body: bulkBody('2026-01-08') });
    h.sb.advance(60_000);
    await settle();
    expect(events().map((e) => e.type)).toContain('banking.payment.status.updated');
  });

  it('delivers payment status events as structured CloudEvents 1.0 with the documented attributes and the authorization header', async () => {
    await subscribe({ authorizationHeader: 'Bearer hook-secret' }, { events: ['banking.payment.status.updated'] });
    const bulkId = await settledPayment();
    const posts = received.filter((r) => r.method === 'POST');
    expect(posts[0]!.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    expect(posts[0]!.headers.authorization).toBe('Bearer hook-secret');
    const evs = events();
    expect(evs.map((e) => e.data.transactionStatus)).toEqual(['ACSP', 'ACSC']);
    const e = evs[0];
    expect(e).toMatchObject({
      specversion: '1.0',
      source: SEED.subscriptionId,
      tid: SEED.tenant,
      type: 'banking.payment.status.updated',
    });
    expect(e.subject).toBe(
      `/subscriptions/sandbox/resource-groups/999999999/providers/aritma.openbanking/accounts/${SEED.operatingAccountId}`,
    );
    expect(e.time).toBe('2026-01-05T08:01:00.000Z');
    expect(e.data).toMatchObject({ endToEndIdentification: 'E2E-1', tppMessages: [] });
    expect(e.data._links.bulkPayment.href).toContain(bulkId);
    expect(e.data._links.self.verb).toBe('get');
  });

  it('batches events into one JSON array when maxEventsPerBatch > 1, mixing types', async () => {
    await subscribe({ maxEventsPerBatch: 50 });
    await settledPayment();
    const posts = received.filter((r) => r.method === 'POST');
    expect(posts[0]!.headers['content-type']).toMatch(/^application\/cloudevents-batch\+json/);
    const types = new Set(events().map((e) => e.type));
    expect(types).toEqual(
      new Set([
        'banking.payment.status.updated',
        'banking.bulk_payment.status.updated',
        'banking.account.transaction.received',
        'banking.account.balance.updated',
      ]),
    );
    const tx = events().find((e) => e.type === 'banking.account.transaction.received');
    expect(tx.data).toMatchObject({
      endToEndIdentification: 'E2E-1',
      transactionAmount: { currency: 'NOK', amount: '-100.50' },
    });
  });

  it('delivers in binary mode with ce- headers', async () => {
    await subscribe({ mode: 'binary' }, { events: ['banking.bulk_payment.status.updated'] });
    await settledPayment();
    const post = received.find((r) => r.method === 'POST')!;
    expect(post.headers['ce-type']).toBe('banking.bulk_payment.status.updated');
    expect(post.headers['ce-specversion']).toBe('1.0');
    expect(post.headers['ce-tid']).toBe(SEED.tenant);
    expect(JSON.parse(post.body).transactionStatus).toBe('ACSP');
  });

  it('retries a non-2xx delivery with back-off until it succeeds', async () => {
    await subscribe({}, { events: ['banking.bulk_payment.status.updated'] });
    failNext = 2;
    await h.call('POST', '/bulk-payments/credit-transfer', { body: bulkBody('2026-01-08') });
    h.sb.advance(60_000);
    await settle();
    expect(received.filter((r) => r.method === 'POST')).toHaveLength(3);
    expect((await h.control('GET', '/failed-events')).body.data).toHaveLength(0);
  });

  it('dead-letters an event after maxEventDeliveryAttempts failures', async () => {
    await subscribe(
      {},
      { events: ['banking.bulk_payment.status.updated'], retryPolicy: { maxEventDeliveryAttempts: 2 } },
    );
    failNext = 5;
    await h.call('POST', '/bulk-payments/credit-transfer', { body: bulkBody('2026-01-08') });
    h.sb.advance(60_000);
    await settle();
    expect(received).toHaveLength(2);
    expect((await h.control('GET', '/failed-events')).body.data).toEqual([
      expect.objectContaining({ attempts: 2, lastStatus: 500 }),
    ]);
  });

  it('duplicates and reorders deliveries when those faults are on', async () => {
    await subscribe({}, { events: ['banking.payment.status.updated'] });
    await h.control('POST', '/faults', { webhooks: { duplicateRate: 1, reorder: true } });
    await h.call('POST', '/bulk-payments/credit-transfer', { body: bulkBody('2026-01-06', 2) });
    h.sb.advance(60_000);
    await settle();
    expect(events().map((e) => e.data.endToEndIdentification)).toEqual(['E2E-2', 'E2E-2', 'E2E-1', 'E2E-1']);
  });

  it('emits consent status events for the headless test bank', async () => {
    await subscribe({}, { events: ['banking.consent.status.updated'] });
    await h.call('POST', '/consents', {
      body: {
        channelType: 'openBanking',
        subscriptionId: 'sandbox',
        resourceGroupName: '123456785',
        bankId: 'testbank',
        properties: { isHeadless: 'true', psuCorporateId: '123456785' },
      },
    });
    h.sb.advance(70_000);
    await settle();
    expect(events().map((e) => e.data.status)).toEqual(['Created', 'Started', 'Authorized']);
    expect(events()[0].subject).toMatch(/\/providers\/aritma\.banking\/consents\//);
  });
});
