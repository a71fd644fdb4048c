// POST /webhooks/banking: CloudEvents from the bank's event subscription.
//
//  - Authorization must equal server.webhookAuthorization (constant-time); checked before the
//    body is read. No configured value: every delivery is refused. Refusals are logged as a
//    count per source address (./refusal-log.ts), never with their body or headers.
//  - Bodies over maxBodyBytes: 413. Content types other than JSON / CloudEvents JSON: 415.
//  - The subscription validation handshake (WebHook-Request-Origin / WebHook-Request-Callback
//    headers, CloudEvents webhook spec; POST or OPTIONS): 200, then GET the callback URL.
//  - Each event is recorded in webhook_events before the answer; an id already processed is a
//    redelivery: acknowledged and ignored. New events go to `onEvents`; only when it returned
//    are they marked processed. 2xx means "durably recorded"; a 5xx makes the bank redeliver.
//    Two deliveries of one still-unprocessed id racing each other may both reach `onEvents`;
//    that is harmless because status goes through the idempotent transition function.
//  - Event types settle does not read are recorded, acknowledged and counted by type
//    (settle_webhook_unknown_events_total); the bank adds types over time.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { request as httpRequest } from 'undici';
import type { Logger } from '../log/index.js';
import type { Secret } from '../log/index.js';
import type { IncomingEvent } from '../store/index.js';
import { authorizationMatches } from './authorization.js';
import { readDelivery, type BankingEvent } from './event-reader.js';
import type { Metrics } from './metrics.js';
import { RefusalLog } from './refusal-log.js';

export const WEBHOOK_PATH = '/webhooks/banking';
const CONTENT_TYPES = ['application/json', 'application/cloudevents+json', 'application/cloudevents-batch+json'];

export interface RawDelivery {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** What the route needs of the store: the webhook_events table (DedupeRepository). */
export interface WebhookEventLog {
  recordWebhookEvent(event: IncomingEvent): Promise<boolean>;
  markWebhookProcessed(eventId: string): Promise<void>;
}

export interface WebhookOptions {
  authorization?: Secret | undefined;
  maxBodyBytes: number;
  /** Applies new events (the status job's transition function). Absent: events are only recorded, unprocessed, for a job to apply later. */
  onEvents?: ((events: BankingEvent[], raw: RawDelivery) => Promise<void>) | undefined;
  /** Fetches the validation URL of the handshake; default an HTTP GET. */
  confirmSubscription?: (url: string) => Promise<void>;
}

export interface WebhookRouteDeps extends WebhookOptions {
  events: WebhookEventLog;
  logger: Logger;
  metrics?: Metrics | undefined;
}

export function registerWebhookRoute(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const log = deps.logger.child({ component: 'webhook' });
  const confirm = deps.confirmSubscription ?? getValidationUrl;
  const refusals = new RefusalLog(log);
  app.addHook('onClose', (_instance, done) => (refusals.flush(), done()));

  void app.register((scope, _opts, done) => {
    // Bodies stay raw bytes: the CloudEvents reader decides how to read them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(CONTENT_TYPES, { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, next) =>
      next(null, body),
    );

    scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (authorizationMatches(deps.authorization, req.headers.authorization)) return;
      refusals.note(req.ip);
      await reply.code(401).send({ error: 'unauthorized', message: 'missing or wrong Authorization header' });
    });

    const handshake = (req: FastifyRequest, reply: FastifyReply): boolean => {
      const origin = header(req, 'webhook-request-origin');
      const callback = header(req, 'webhook-request-callback');
      if (origin === undefined && callback === undefined) return false;
      void reply.header('WebHook-Allowed-Origin', origin ?? '*').header('WebHook-Allowed-Rate', '*');
      if (callback !== undefined) {
        // Answer first: the bank may wait for our 200 before it accepts the GET.
        setImmediate(() => {
          confirm(callback).then(
            () => log.info('webhook subscription validated', { origin, callback: safeUrl(callback) }),
            (error: unknown) =>
              log.error('webhook subscription validation failed', {
                origin,
                callback: safeUrl(callback),
                error: error instanceof Error ? error.message : String(error),
              }),
          );
        });
      }
      log.info('webhook validation handshake', {
        origin,
        callback: callback === undefined ? undefined : safeUrl(callback),
      });
      return true;
    };

    scope.options(WEBHOOK_PATH, async (req, reply) => {
      handshake(req, reply);
      return reply.code(200).send();
    });

    scope.post(WEBHOOK_PATH, { bodyLimit: deps.maxBodyBytes }, async (req, reply) => {
      if (handshake(req, reply)) return reply.code(200).send({ validation: 'accepted' });
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const read = readDelivery(req.headers, body);
      if (!read.ok) {
        deps.metrics?.webhookEvents.inc({ outcome: 'rejected' });
        log.warn('webhook delivery refused', { code: read.problem.code, message: read.problem.message });
        return reply.code(400).send({ error: read.problem.code, message: read.problem.message });
      }
      const { events, rejected } = read.delivery;
      for (const r of rejected)
        log.warn('webhook event rejected', { index: r.index, eventId: r.id, message: r.message });
      deps.metrics?.webhookEvents.inc({ outcome: 'rejected' }, rejected.length);

      const fresh: BankingEvent[] = [];
      const seen = new Set<string>();
      for (const event of events) {
        // A batch may carry the same event twice: only the first counts.
        const isNew =
          !seen.has(event.meta.id) &&
          (await deps.events.recordWebhookEvent({
            id: event.meta.id,
            type: event.meta.type,
            source: event.meta.source,
            payload: event,
          }));
        seen.add(event.meta.id);
        if (isNew && event.kind === 'unknown')
          // Only the authenticated bank reaches this point; the type is cut so a label stays short.
          deps.metrics?.webhookUnknownEvents.inc({ type: event.meta.type.slice(0, 100) });
        if (isNew) fresh.push(event);
        else log.info('webhook event already processed; ignored', { eventId: event.meta.id, type: event.meta.type });
      }
      deps.metrics?.webhookEvents.inc({ outcome: 'duplicate' }, events.length - fresh.length);
      if (fresh.length > 0 && deps.onEvents) {
        await deps.onEvents(fresh, { headers: req.headers, body });
        for (const event of fresh) await deps.events.markWebhookProcessed(event.meta.id);
      }
      deps.metrics?.webhookEvents.inc({ outcome: 'accepted' }, fresh.length);
      if (fresh.length)
        log.info('webhook events accepted', { events: fresh.map((e) => ({ id: e.meta.id, type: e.meta.type })) });
      return reply
        .code(200)
        .send({ accepted: fresh.length, duplicates: events.length - fresh.length, rejected: rejected.length });
    });
    done();
  });
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Origin and path only: the query of a validation URL is its one-time code. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

async function getValidationUrl(url: string): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`refusing a ${u.protocol} validation URL`);
  const res = await httpRequest(u, { method: 'GET', headersTimeout: 10_000, bodyTimeout: 10_000 });
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode > 299)
    throw new Error(`the validation URL answered HTTP ${res.statusCode}`);
}
