// Promise: the bank's webhook at POST /webhooks/banking of `settle serve` acts only on
// deliveries that carry the configured Authorization value (compared in constant time), refuses
// oversized bodies before reading them, and applies a CloudEvent id once however often it is
// delivered. Proved against the real serve stack (startServe on a real App, SQLite, the
// sandbox bank) over HTTP, with a payment that the nightly chain really sent to the bank.
import { randomUUID } from 'node:crypto';
import * as crypto from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger, Secret } from '../../src/log/index.js';
import { createApp, type App } from '../../src/main/app.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { authorizationMatches } from '../../src/server/authorization.js';

// A pass-through spy on the one constant-time comparison node offers, to see that it is used.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const AUTH = 'Bearer wh-token-Q7x2kP9w';
const MAX_BODY = 4096;
const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const STRUCTURED = 'application/cloudevents+json; charset=utf-8';

describe('security: the webhook of settle serve', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let serve: RunningServe;
  let hook: string;
  let app: App;
  let bulk: { id: string; bank_payment_id: string; state: string };
  const logLines: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-sec-webhook-'));
    sandbox = await startSandbox({ port: 0 });
    const file = await writeDemoConfig(dir, sandbox);
    await writeFile(file, `server:\n  maxBodyBytes: ${MAX_BODY}\n`, { flag: 'a' });
    const config = loadConfig({
      file,
      cwd: dir,
      env: { SETTLE_CLIENT_SECRET: SEED.clientSecret, SETTLE_WEBHOOK_AUTHORIZATION: AUTH },
    });
    const stream = new Writable({
      write: (chunk: Buffer, _enc, done) => (logLines.push(chunk.toString('utf8')), done()),
    });
    app = await createApp(config, createLogger({ format: 'json', level: 'debug', stream }), sandbox.sandbox.clock);
    await mkdir(join(dir, 'acme/inbox'), { recursive: true });
    await writeFile(
      join(dir, 'acme/inbox/pay.csv'),
      `${HEADER}\nNO9386011117947,ACME AS,2026-01-06,SEC-E2E-1,125.00,NOK,NO0612000000009,Leverandor AS\n`,
    );
    serve = await startServe(app, { port: 0, host: '127.0.0.1', scheduler: false, notifiers: [] });
    hook = `${serve.url}/webhooks/banking`;
    await serve.scheduler.trigger('nightly');
    const sent = await app.db
      .knex('bulks')
      .whereNotNull('bank_payment_id')
      .select<{ id: string; bank_payment_id: string; state: string }[]>('id', 'bank_payment_id', 'state');
    expect(sent).toHaveLength(1);
    bulk = sent[0]!;
  }, 120_000);
  afterAll(async () => {
    await serve?.stop();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function counts(): Promise<{ events: number; transitions: number }> {
    const [events] = await app.db.knex('webhook_events').count<{ n: number }[]>({ n: '*' });
    const [transitions] = await app.db.knex('transitions').count<{ n: number }[]>({ n: '*' });
    return { events: Number(events?.n), transitions: Number(transitions?.n) };
  }

  const event = (status: string, id: string = randomUUID(), padding = '') =>
    JSON.stringify({
      specversion: '1.0',
      id,
      source: 'sandbox',
      type: 'banking.bulk_payment.status.updated',
      time: '2026-01-05T09:00:00.000Z',
      datacontenttype: 'application/json',
      data: {
        paymentId: bulk.bank_payment_id,
        transactionStatus: status,
        tppMessages: [],
        _links: {},
        ...(padding ? { padding } : {}),
      },
    });
  const post = (body: string, authorization?: string) =>
    fetch(hook, {
      method: 'POST',
      headers: { 'content-type': STRUCTURED, ...(authorization === undefined ? {} : { authorization }) },
      body,
    });

  it('refuses a delivery without Authorization, with a wrong, a truncated or a differently cased one: 401, nothing recorded, token never logged', async () => {
    const before = await counts();
    const body = event('ACSC');
    for (const authorization of [
      undefined,
      '',
      'Bearer wh-token-Q7x2kP9x',
      'Bearer wh-token',
      AUTH.toLowerCase(),
      `${AUTH}x`,
      AUTH.replace('Bearer ', ''),
    ]) {
      const res = await post(body, authorization);
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
    }
    expect(await counts()).toEqual(before);
    expect(logLines.join('')).not.toContain('wh-token');
  });

  it('logs refused requests as a count per source address, never their body or headers', async () => {
    const from = logLines.length;
    const body = event('ACSC', 'refused-event-id-4711');
    for (let i = 0; i < 5; i++) expect((await post(body, `Bearer guess-${i}`)).status).toBe(401);
    const lines = logLines.slice(from).join('');
    for (const leak of ['refused-event-id-4711', 'guess-', 'cloudevents', 'ACSC', 'authorization'])
      expect(lines.toLowerCase()).not.toContain(leak.toLowerCase());
    const refused = logLines
      .slice(from)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => String(l.message).includes('refused'));
    // The first refusal from 127.0.0.1 was logged by the test above; these five wait for the window's summary.
    expect(refused).toEqual([]);
  });

  it('refuses a correctly authorised body over server.maxBodyBytes with 413 and records nothing', async () => {
    const before = await counts();
    const big = event('ACSC', randomUUID(), 'x'.repeat(MAX_BODY + 100));
    const res = await post(big, AUTH);
    expect(res.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it('applies the same CloudEvent id once: a redelivery is acknowledged and changes nothing', async () => {
    const id = randomUUID();
    const body = event('ACSC', id);
    const first = await post(body, AUTH);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
    const knex = app.db.knex;
    const afterFirst = await knex('transitions')
      .where({ entity_type: 'bulk', entity_id: bulk.id })
      .select('from_state', 'to_state', 'cause');
    const state = await knex('bulks')
      .where({ id: bulk.id })
      .first<{ state: string; bank_status: string } | undefined>('state', 'bank_status');
    expect(state?.bank_status).toBe('ACSC');
    expect(state?.state).not.toBe(bulk.state);

    const again = await post(body, AUTH);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ accepted: 0, duplicates: 1, rejected: 0 });
    expect(
      await knex('transitions')
        .where({ entity_type: 'bulk', entity_id: bulk.id })
        .select('from_state', 'to_state', 'cause'),
    ).toEqual(afterFirst);
    expect(afterFirst.filter((t: { to_state: string }) => t.to_state === state?.state)).toHaveLength(1);
    const [rows] = await knex('webhook_events').where({ event_id: id }).count<{ n: number }[]>({ n: '*' });
    expect(Number(rows?.n)).toBe(1);
  });

  it('compares the Authorization value with crypto.timingSafeEqual over equal-length digests', () => {
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    expect(authorizationMatches(new Secret(AUTH), AUTH)).toBe(true);
    expect(authorizationMatches(new Secret(AUTH), 'Bearer x')).toBe(false);
    expect(authorizationMatches(new Secret(AUTH), undefined)).toBe(false);
    expect(authorizationMatches(undefined, AUTH)).toBe(false);
    // Both presented values were compared by the timing-safe function, on 32-byte digests whatever their length.
    expect(spy).toHaveBeenCalledTimes(2);
    for (const [a, b] of spy.mock.calls) expect([a.byteLength, b.byteLength]).toEqual([32, 32]);
  });
});
