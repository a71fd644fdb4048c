import { createServer } from 'node:http';
import { HTTP } from 'cloudevents';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionRepository } from '../../src/store/index.js';
import type { BankingEvent } from '../../src/bank/index.js';
import { systemClock } from '../../src/domain/clock.js';
import { Secret } from '../../src/log/index.js';
import { buildServer, createHealthCheck, createMetrics } from '../../src/server/index.js';
import { JobRunRepository } from '../../src/store/job-runs.js';
import { capturingLogger, openTempDb, paymentStatusEvent, sleep, type TempDb } from './helpers.js';

const AUTH = 'Bearer wh-secret-7f3a9c';
const STRUCTURED = 'application/cloudevents+json; charset=utf-8';
const BATCH = 'application/cloudevents-batch+json; charset=utf-8';

describe('POST /webhooks/banking', () => {
  let t: TempDb;
  let app: FastifyInstance;
  let lines: string[];
  let handled: BankingEvent[][];
  let failNext: boolean;
  let validations: string[];

  beforeEach(async () => {
    t = await openTempDb();
    const captured = capturingLogger();
    lines = captured.lines;
    handled = [];
    failNext = false;
    validations = [];
    const metrics = createMetrics({ counts: new AttentionRepository(t.db), processMetrics: false });
    app = buildServer({
      db: t.db,
      logger: captured.logger,
      clock: systemClock,
      metrics,
      health: createHealthCheck({
        db: t.db,
        jobRuns: new JobRunRepository(t.db, systemClock),
        jobNames: [],
        clock: systemClock,
      }),
      webhook: {
        authorization: new Secret(AUTH),
        maxBodyBytes: 4096,
        onEvents: (events) => {
          if (failNext) {
            failNext = false;
            return Promise.reject(new Error('database went away'));
          }
          handled.push(events);
          return Promise.resolve();
        },
        confirmSubscription: (url) => {
          validations.push(url);
          return Promise.resolve();
        },
      },
    });
  });
  afterEach(async () => {
    await app.close();
    await t.cleanup();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/webhooks/banking',
      headers: { authorization: AUTH, 'content-type': STRUCTURED, ...headers },
      payload: body,
    });

  it('refuses a delivery without Authorization, or with a wrong one, with 401 and never logs the header', async () => {
    const body = JSON.stringify(paymentStatusEvent().toJSON());
    const none = await app.inject({
      method: 'POST',
      url: '/webhooks/banking',
      headers: { 'content-type': STRUCTURED },
      payload: body,
    });
    const wrong = await post(body, { authorization: 'Bearer wh-secret-7f3a9d' });
    const prefix = await post(body, { authorization: 'Bearer wh-secret' });
    expect([none.statusCode, wrong.statusCode, prefix.statusCode]).toEqual([401, 401, 401]);
    expect(handled).toEqual([]);
    expect(lines.join('')).not.toMatch(/wh-secret/);
    expect(await t.db.knex('webhook_events').count({ n: '*' })).toEqual([{ n: 0n }]);
  });

  it('refuses every delivery when no authorization value is configured', async () => {
    const open = buildServer({
      db: t.db,
      logger: capturingLogger().logger,
      clock: systemClock,
      metrics: createMetrics({ processMetrics: false }),
      health: () => Promise.reject(new Error('unused')),
      webhook: { maxBodyBytes: 4096 },
    });
    const res = await open.inject({
      method: 'POST',
      url: '/webhooks/banking',
      headers: { 'content-type': STRUCTURED, authorization: '' },
      payload: '{}',
    });
    await open.close();
    expect(res.statusCode).toBe(401);
  });

  it('refuses a body over the configured size with 413', async () => {
    const event = paymentStatusEvent();
    const big = JSON.stringify({
      ...event.toJSON(),
      data: { paymentId: 'x', transactionStatus: 'ACSC', padding: 'x'.repeat(5000) },
    });
    const res = await post(big);
    expect(res.statusCode).toBe(413);
    expect(handled).toEqual([]);
  });

  it('refuses content types other than JSON and CloudEvents JSON with 415', async () => {
    const res = await post('id=1', { 'content-type': 'application/x-www-form-urlencoded' });
    const xml = await post('<e/>', { 'content-type': 'application/xml' });
    expect([res.statusCode, xml.statusCode]).toEqual([415, 415]);
  });

  it('answers a body that is not a CloudEvent with 400 and the reader error code', async () => {
    const res = await post(JSON.stringify({ hello: 'world' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_BANK_EVENT_INVALID' });
  });

  it('accepts a structured event, records it, hands it on and marks it processed', async () => {
    const event = paymentStatusEvent('ACSC');
    const res = await post(JSON.stringify(event.toJSON()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect(handled).toHaveLength(1);
    expect(handled[0]?.[0]).toMatchObject({
      kind: 'payment.status.updated',
      paymentId: 'line-1',
      transactionStatus: 'ACSC',
      meta: { id: event.id },
    });
    const rows = await t.db.knex('webhook_events').select('event_id', 'type', 'processed_at');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id: event.id, type: 'banking.payment.status.updated' });
    expect(rows[0]?.processed_at).toEqual(expect.any(String));
  });

  it('accepts a binary-mode event (ce- headers, JSON data)', async () => {
    const message = HTTP.binary(paymentStatusEvent('RJCT'));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(message.headers)) if (typeof v === 'string') headers[k] = v;
    const res = await post(String(message.body), headers);
    expect(res.statusCode).toBe(200);
    expect(handled[0]?.[0]).toMatchObject({ kind: 'payment.status.updated', transactionStatus: 'RJCT' });
  });

  it('accepts a batch, keeps the good events and reports the bad one', async () => {
    const a = paymentStatusEvent('ACCP');
    const b = paymentStatusEvent('ACSC');
    const res = await post(
      JSON.stringify([
        a.toJSON(),
        { specversion: '1.0', id: 'bad-1', type: 'banking.payment.status.updated' },
        b.toJSON(),
      ]),
      { 'content-type': BATCH },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 2, duplicates: 0, rejected: 1 });
    expect(handled[0]?.map((e) => e.meta.id)).toEqual([a.id, b.id]);
  });

  it('acknowledges a replayed event id with 200 and ignores it', async () => {
    const body = JSON.stringify(paymentStatusEvent().toJSON());
    const first = await post(body);
    const replay = await post(body);
    expect([first.statusCode, replay.statusCode]).toEqual([200, 200]);
    expect(replay.json()).toEqual({ accepted: 0, duplicates: 1, rejected: 0 });
    expect(handled).toHaveLength(1);
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/settle_webhook_events_total\{outcome="duplicate"\} 1/);
    expect(metrics.body).toMatch(/settle_webhook_events_total\{outcome="accepted"\} 1/);
  });

  it('counts an event that appears twice in one batch once', async () => {
    const a = paymentStatusEvent('ACSC');
    const res = await post(JSON.stringify([a.toJSON(), a.toJSON()]), { 'content-type': BATCH });
    expect(res.json()).toEqual({ accepted: 1, duplicates: 1, rejected: 0 });
    expect(handled).toHaveLength(1);
    expect(handled[0]).toHaveLength(1);
  });

  it('answers 5xx when the events cannot be applied, so the bank redelivers, and applies the redelivery', async () => {
    const body = JSON.stringify(paymentStatusEvent().toJSON());
    failNext = true;
    const failed = await post(body);
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain('database went away');
    const again = await post(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    expect(handled).toHaveLength(1);
  });

  it('answers the validation handshake with 200 and then fetches the validation URL', async () => {
    const callback = 'http://127.0.0.1:9/__sandbox/subscriptions/s1/validate?code=abc';
    const res = await app.inject({
      method: 'POST',
      url: '/webhooks/banking',
      headers: {
        authorization: AUTH,
        'content-type': 'application/json',
        'webhook-request-origin': 'sandbox',
        'webhook-request-callback': callback,
      },
      payload: JSON.stringify({ subscriptionId: 's1', validationUrl: callback }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['webhook-allowed-origin']).toBe('sandbox');
    await sleep(20);
    expect(validations).toEqual([callback]);
    expect(handled).toEqual([]);
    expect(lines.join('')).not.toContain('code=abc');
  });

  it('answers an OPTIONS abuse-protection request and fetches its callback', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/webhooks/banking',
      headers: {
        authorization: AUTH,
        'webhook-request-origin': 'bank.example',
        'webhook-request-callback': 'http://127.0.0.1:9/v?c=1',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['webhook-allowed-origin']).toBe('bank.example');
    await sleep(20);
    expect(validations).toEqual(['http://127.0.0.1:9/v?c=1']);
  });
});

describe('webhook handshake over real HTTP', () => {
  it('GETs the validation URL the bank names', async () => {
    const t = await openTempDb();
    const hits: string[] = [];
    const bank = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => bank.listen(0, '127.0.0.1', r));
    const port = (bank.address() as { port: number }).port;
    const app = buildServer({
      db: t.db,
      logger: capturingLogger().logger,
      clock: systemClock,
      metrics: createMetrics({ processMetrics: false }),
      health: () => Promise.reject(new Error('unused')),
      webhook: { authorization: new Secret(AUTH), maxBodyBytes: 4096 },
    });
    try {
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      const callback = `http://127.0.0.1:${port}/__sandbox/subscriptions/s9/validate?code=xyz`;
      const res = await fetch(`${address}/webhooks/banking`, {
        method: 'POST',
        headers: {
          authorization: AUTH,
          'content-type': 'application/json',
          'webhook-request-origin': 'sandbox',
          'webhook-request-callback': callback,
        },
        body: JSON.stringify({ subscriptionId: 's9', validationUrl: callback }),
      });
      expect(res.status).toBe(200);
      for (let i = 0; i < 50 && hits.length === 0; i++) await sleep(20);
      expect(hits).toEqual(['/__sandbox/subscriptions/s9/validate?code=xyz']);
    } finally {
      await app.close();
      await new Promise((r) => bank.close(r));
      await t.cleanup();
    }
  });
});
