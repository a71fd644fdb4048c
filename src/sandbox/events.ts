// Webhook subscriptions and CloudEvents 1.0 delivery (spec §6, facts §8). Deliveries never
// block a request: emit() queues, a per-subscription chain POSTs with undici, retries non-2xx
// with doubling back-off (real time), and dead-letters after maxAttempts.
import { CloudEvent, HTTP } from 'cloudevents';
import { fetch } from 'undici';
import { randomUUID } from 'node:crypto';
import { badRequest, notFound } from './problems.js';
import type { Faults } from './faults.js';

export interface EventInput {
  type: string;
  subscriptionId: string;
  resourceGroupName: string;
  /** The provider path after the resource group, e.g. "aritma.openbanking/accounts/<id>". */
  resource: string;
  tenant: string;
  /** RFC 3339 instant of the change. */
  time: string;
  data: Record<string, unknown>;
}

export interface Subscription {
  id: string;
  name: string;
  url: string;
  events: string[];
  resourceUri: string;
  maxEventsPerBatch: number;
  mode: 'structured' | 'binary';
  authorizationHeader: string | null;
  maxAttempts: number;
  status: 'pending' | 'active';
  validationCode: string;
  delivered: number;
  failed: number;
}

export interface DeadLetter {
  subscriptionId: string;
  eventIds: string[];
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}

type Ce = CloudEvent<Record<string, unknown>>;

export class EventBus {
  readonly subscriptions = new Map<string, Subscription>();
  readonly log: Ce[] = [];
  readonly deadLetters: DeadLetter[] = [];
  private readonly queues = new Map<string, Ce[]>();
  private readonly chains = new Map<string, Promise<void>>();
  private flushScheduled = false;
  private closed = false;

  constructor(
    private readonly origin: () => string,
    private readonly faults: Faults,
    private readonly retryBaseMs: number,
  ) {}

  create(input: unknown): Subscription {
    if (input === null || typeof input !== 'object') throw badRequest('body must be a JSON object');
    const o = input as Record<string, unknown>;
    const delivery = (o.delivery ?? {}) as Record<string, unknown>;
    const url = delivery.url ?? o.url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw badRequest('delivery.url must be an http(s) URL');
    const batch = delivery.maxEventsPerBatch ?? 1;
    if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1 || batch > 5000)
      throw badRequest('delivery.maxEventsPerBatch must be an integer from 1 to 5000');
    const mode = delivery.mode ?? o.mode ?? 'structured';
    if (mode !== 'structured' && mode !== 'binary') throw badRequest('delivery.mode must be structured or binary');
    const events = o.events ?? [];
    if (!Array.isArray(events) || events.some((e) => typeof e !== 'string'))
      throw badRequest('events must be an array of event type names');
    const retry = (o.retryPolicy ?? {}) as Record<string, unknown>;
    const attempts = retry.maxEventDeliveryAttempts ?? 5;
    if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 1)
      throw badRequest('retryPolicy.maxEventDeliveryAttempts must be a positive integer');
    const auth = delivery.authorizationHeader ?? null;
    if (auth !== null && typeof auth !== 'string') throw badRequest('delivery.authorizationHeader must be a string');
    const resourceUri = o.resourceUri ?? '/subscriptions/sandbox';
    if (typeof resourceUri !== 'string' || !resourceUri.startsWith('/subscriptions/'))
      throw badRequest('resourceUri must start with /subscriptions/');
    const id = randomUUID();
    const sub: Subscription = {
      id,
      name: typeof o.name === 'string' ? o.name : `subscription-${id.slice(0, 8)}`,
      url,
      events: events as string[],
      resourceUri,
      maxEventsPerBatch: batch,
      mode,
      authorizationHeader: auth,
      maxAttempts: attempts,
      status: o.validation === 'skip' ? 'active' : 'pending',
      validationCode: randomUUID(),
      delivered: 0,
      failed: 0,
    };
    this.subscriptions.set(id, sub);
    if (sub.status === 'pending') this.sendValidation(sub);
    return sub;
  }

  remove(id: string): void {
    if (!this.subscriptions.delete(id)) throw notFound('Subscription not found');
    this.queues.delete(id);
  }

  validate(id: string, code: string): boolean {
    const sub = this.subscriptions.get(id);
    if (!sub || sub.validationCode !== code) return false;
    sub.status = 'active';
    return true;
  }

  validationUrl(sub: Subscription): string {
    return `${this.origin()}/__sandbox/subscriptions/${sub.id}/validate?code=${sub.validationCode}`;
  }

  /** Builds the CloudEvent and queues it for every active subscription in scope. */
  emit(input: EventInput): void {
    const event: Ce = new CloudEvent<Record<string, unknown>>({
      specversion: '1.0',
      id: randomUUID(),
      source: input.subscriptionId,
      type: input.type,
      time: input.time,
      subject: `/subscriptions/${input.subscriptionId}/resource-groups/${input.resourceGroupName}/providers/${input.resource}`,
      tid: input.tenant,
      datacontenttype: 'application/json',
      data: input.data,
    });
    this.log.push(event);
    for (const sub of this.subscriptions.values()) {
      if (sub.status !== 'active') continue; // events flow only after validation (facts §8.4)
      if (sub.events.length > 0 && !sub.events.includes(input.type)) continue;
      if (!(event.subject ?? '').startsWith(sub.resourceUri)) continue;
      const queue = this.queues.get(sub.id) ?? [];
      queue.push(event);
      if (this.faults.chance(this.faults.webhooks.duplicateRate)) queue.push(event);
      this.queues.set(sub.id, queue);
    }
    this.scheduleFlush();
  }

  /** Resolves when every queued delivery has finished (delivered or dead-lettered). */
  async idle(): Promise<void> {
    while (this.flushScheduled || [...this.chains.values()].length > 0) {
      await Promise.all([...this.chains.values()]);
      await new Promise((r) => setImmediate(r));
    }
  }

  close(): void {
    this.closed = true;
    this.queues.clear();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      for (const [id, queue] of this.queues) {
        if (queue.length === 0) continue;
        this.queues.set(id, []);
        const sub = this.subscriptions.get(id);
        if (!sub) continue;
        const events = this.faults.webhooks.reorder ? [...queue].reverse() : queue;
        const prior = this.chains.get(id) ?? Promise.resolve();
        const chain = prior.then(() => this.deliverAll(sub, events));
        this.chains.set(id, chain);
        void chain.finally(() => {
          if (this.chains.get(id) === chain) this.chains.delete(id);
        });
      }
    });
  }

  private async deliverAll(sub: Subscription, events: Ce[]): Promise<void> {
    const size = sub.mode === 'binary' ? 1 : sub.maxEventsPerBatch;
    for (let i = 0; i < events.length; i += size) await this.deliver(sub, events.slice(i, i + size));
  }

  private async deliver(sub: Subscription, batch: Ce[]): Promise<void> {
    let lastStatus: number | null = null;
    let lastError: string | null = null;
    for (let attempt = 1; attempt <= sub.maxAttempts; attempt++) {
      if (this.closed) return;
      try {
        const { headers, body } = encode(sub, batch);
        if (sub.authorizationHeader) headers.authorization = sub.authorizationHeader;
        const res = await fetch(sub.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        lastStatus = res.status;
        if (res.ok) {
          sub.delivered += batch.length;
          return;
        }
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
      }
      if (attempt < sub.maxAttempts) await sleep(this.retryBaseMs * 2 ** (attempt - 1));
    }
    sub.failed += batch.length;
    this.deadLetters.push({
      subscriptionId: sub.id,
      eventIds: batch.map((e) => e.id),
      attempts: sub.maxAttempts,
      lastStatus,
      lastError,
    });
  }

  private sendValidation(sub: Subscription): void {
    // The handshake header names are not documented by the bank; these follow the CloudEvents
    // webhook spec. The subscription activates when the receiver GETs the callback URL.
    const url = this.validationUrl(sub);
    void fetch(sub.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-request-origin': 'sandbox',
        'webhook-request-callback': url,
        ...(sub.authorizationHeader ? { authorization: sub.authorizationHeader } : {}),
      },
      body: JSON.stringify({ subscriptionId: sub.id, validationUrl: url }),
      signal: AbortSignal.timeout(10_000),
    })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
  }
}

function encode(sub: Subscription, batch: Ce[]): { headers: Record<string, string>; body: string } {
  if (sub.mode === 'binary' && batch[0]) {
    const message = HTTP.binary(batch[0]);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(message.headers)) if (typeof v === 'string') headers[k] = v;
    return { headers, body: String(message.body) };
  }
  if (batch.length === 1 && sub.maxEventsPerBatch === 1 && batch[0]) {
    return {
      headers: { 'content-type': 'application/cloudevents+json; charset=utf-8' },
      body: JSON.stringify(batch[0].toJSON()),
    };
  }
  return {
    headers: { 'content-type': 'application/cloudevents-batch+json; charset=utf-8' },
    body: JSON.stringify(batch.map((e) => e.toJSON())),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
