// Real webhook deliveries from the sandbox (structured, batched and binary), read back by the
// client's CloudEvents reader.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEventDelivery } from '../../src/bank/cloud-events.js';
import type { BankingEvent } from '../../src/bank/index.js';
import { bulk, SEED, startHarness, type Harness } from './helpers.js';

let h: Harness;
let receiver: Server;
let deliveries: { path: string; headers: IncomingHttpHeaders; body: string }[];
let receiverUrl: string;

beforeEach(async () => {
  h = await startHarness();
  deliveries = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '', headers: req.headers, body });
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await h.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

describe('webhook deliveries from the sandbox', () => {
  it('reads structured, batched and binary deliveries into the same typed events', async () => {
    for (const [path, delivery] of [
      ['/structured', { mode: 'structured', maxEventsPerBatch: 1 }],
      ['/batch', { mode: 'structured', maxEventsPerBatch: 10 }],
      ['/binary', { mode: 'binary' }],
    ] as const) {
      await h.control('POST', '/subscriptions', {
        name: path.slice(1),
        validation: 'skip',
        delivery: { url: `${receiverUrl}${path}`, ...delivery },
      });
    }
    const created = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), { idempotencyKey: randomUUID() });
    h.sandbox.advance(24 * 3_600_000 * 3); // RCVD → ACSP → ACSC over the execution date
    await h.sandbox.sandbox.events.idle();

    const byPath = new Map<string, BankingEvent[]>();
    for (const d of deliveries) {
      const { events, rejected } = readEventDelivery(d.headers, d.body);
      expect(rejected).toEqual([]);
      byPath.set(d.path, [...(byPath.get(d.path) ?? []), ...events]);
    }
    const ids = (path: string): string[] => (byPath.get(path) ?? []).map((e) => e.meta.id).sort();
    expect(ids('/structured').length).toBeGreaterThan(0);
    expect(ids('/batch')).toEqual(ids('/structured'));
    expect(ids('/binary')).toEqual(ids('/structured'));
    expect(
      deliveries.some((d) => d.path === '/batch' && /cloudevents-batch/.test(String(d.headers['content-type']))),
    ).toBe(true);
    expect(deliveries.some((d) => d.path === '/binary' && d.headers['ce-id'] !== undefined)).toBe(true);

    const statuses = (byPath.get('/binary') ?? []).flatMap((e) =>
      e.kind === 'bulk_payment.status.updated' && e.paymentId === created.paymentId ? [e.transactionStatus] : [],
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => /^[A-Z]{4}$/.test(s))).toBe(true);
    expect(
      (byPath.get('/structured') ?? []).every(
        (e) => e.meta.tenantId === SEED.tenant && e.meta.subscriptionId === SEED.subscriptionId,
      ),
    ).toBe(true);
  });
});
