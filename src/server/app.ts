// The HTTP side of `settle serve` (fastify): the bank's webhook, /healthz and /metrics.
// Testable with `inject` and over real HTTP. Fastify's own logger stays off: it would log
// request headers, and the webhook's Authorization header must never reach a log line.
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/index.js';
import type { Database } from '../store/index.js';
import { DedupeRepository } from '../store/index.js';
import type { HealthReport } from './health.js';
import type { Metrics } from './metrics.js';
import { registerWebhookRoute, type WebhookEventLog, type WebhookOptions } from './webhook-route.js';

export interface ServerOptions {
  db: Database;
  logger: Logger;
  clock: Clock;
  webhook: WebhookOptions & { events?: WebhookEventLog };
  health: () => Promise<HealthReport>;
  metrics: Metrics;
}

export function buildServer(options: ServerOptions): FastifyInstance {
  const { logger, metrics } = options;
  const app = Fastify({ logger: false, bodyLimit: options.webhook.maxBodyBytes, return503OnClosing: true });

  app.addHook('onResponse', (req, reply, done) => {
    // URL without query string: nothing a caller puts there is worth keeping in the log.
    logger.debug('http', {
      method: req.method,
      path: req.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
    done();
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      logger.error('http request failed', {
        method: req.method,
        path: req.url.split('?')[0],
        error: error.message,
        code: error.code,
      });
      return reply
        .code(status)
        .send({ error: 'internal', message: 'the request could not be processed; it may be retried' });
    }
    return reply.code(status).send({ error: error.code ?? 'bad-request', message: error.message });
  });

  app.get('/healthz', async (_req, reply) => {
    const report = await options.health();
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });

  app.get('/metrics', async (_req, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).send(body);
  });

  registerWebhookRoute(app, {
    ...options.webhook,
    events: options.webhook.events ?? new DedupeRepository(options.db, options.clock),
    logger,
    metrics,
  });
  return app;
}
