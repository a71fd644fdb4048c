// The webhook receiver against the bank simulator over real HTTP: the sandbox's subscription
// handshake activates the subscription, and its deliveries (batched, binary, duplicated by a
// fault) arrive once each.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankingEvent } from '../../src/bank/index.js';
import { systemClock } from '../../src/domain/clock.js';
import { Secret, silentLogger } from '../../src/log/index.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { buildServer, createMetrics, type Metrics } from '../../src/server/index.js';
import { openTempDb, sleep, type TempDb } from './helpers.js';

const AUTH = 'Bearer sandbox-hook-3e9d';

describe('webhook receiver with the sandbox bank', () => {
  let sandbox: RunningSandbox;
  let t: TempDb;
  let server: FastifyInstance;
  let metrics: Metrics;
  let url: string;
  const received: BankingEvent[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ webhookRetryBaseMs: 20 });
    t = await openTempDb();
    metrics = createMetrics({ processMetrics: false });
    server = buildServer({
      db: t.db,
      logger: silentLogger(),
      clock: systemClock,
      metrics,
      health: () => Promise.reject(new Error('unused')),
      webhook: {
        authorization: new Secret(AUTH),
        maxBodyBytes: 1024 * 1024,
        onEvents: (events) => {
          received.push(...events);
          return Promise.resolve();
        },
      },
    });
    url = `${await server.listen({ host: '127.0.0.1', port: 0 })}/webhooks/banking`;
  });
  afterAll(async () => {
    await sandbox.close();
    await server.close();
    await t.cleanup();
  });

  async function subscribe(delivery: Record<string, unknown>): Promise<string> {
    const res = await fetch(`${sandbox.urls.controlUrl}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'settle',
        events: [],
        delivery: { url, authorizationHeader: AUTH, ...delivery },
        retryPolicy: { maxEventDeliveryAttempts: 3 },
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    for (let i = 0; i < 100; i++) {
      const list = (await (await fetch(`${sandbox.urls.controlUrl}/subscriptions`)).json()) as {
        subscriptions: { id: string; status: string }[];
      };
      if (list.subscriptions.find((s) => s.id === id)?.status === 'active') return id;
      await sleep(20);
    }
    throw new Error('the subscription never became active: the handshake failed');
  }

  function emitStatus(n: number): void {
    const account = [...sandbox.sandbox.state.accounts.values()][0]!;
    for (let i = 0; i < n; i++)
      sandbox.sandbox.emit('banking.payment.status.updated', account, {
        paymentId: `line-${i}`,
        endToEndIdentification: `E2E-${i}`,
        transactionStatus: 'ACSC',
        tppMessages: [],
        _links: {},
      });
  }

  it('completes the handshake and receives batched deliveries once each, even when the bank delivers twice', async () => {
    const id = await subscribe({ maxEventsPerBatch: 3, mode: 'structured' });
    await fetch(`${sandbox.urls.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhooks: { duplicateRate: 1 } }),
    });
    emitStatus(4);
    await sandbox.sandbox.events.idle();
    await fetch(`${sandbox.urls.controlUrl}/faults`, { method: 'DELETE' });
    await fetch(`${sandbox.urls.controlUrl}/subscriptions/${id}`, { method: 'DELETE' });
    expect(received.map((e) => (e.kind === 'payment.status.updated' ? e.paymentId : e.kind)).sort()).toEqual([
      'line-0',
      'line-1',
      'line-2',
      'line-3',
    ]);
    expect(sandbox.sandbox.events.deadLetters).toEqual([]);
    expect((await metrics.scrape()).body).toMatch(/^settle_webhook_events_total\{outcome="duplicate"\} 4$/m);
  });

  it('receives binary-mode deliveries', async () => {
    received.length = 0;
    await subscribe({ maxEventsPerBatch: 1, mode: 'binary' });
    emitStatus(2);
    await sandbox.sandbox.events.idle();
    expect(received).toHaveLength(2);
    expect(sandbox.sandbox.events.deadLetters).toEqual([]);
  });
});
