// The HTTP face of the sandbox: one fastify app serving the bank API under /api, the identity
// provider under /id and the control API under /__sandbox. Cross-cutting rules live in hooks:
// latency and faults, api-version, Accept, Bearer auth, idempotency, problem details.
import Fastify, { type FastifyInstance } from 'fastify';
import { isIP } from 'node:net';
import { authenticate } from './access.js';
import { registerAccounts } from './accounts.js';
import { registerAccountStatus } from './account-status.js';
import { registerBanks } from './banks.js';
import { registerBaskets } from './baskets.js';
import { registerConsents } from './consents.js';
import { registerControl } from './control.js';
import { registerCredits } from './credits.js';
import { fingerprint, isUuid } from './idempotency.js';
import { registerIdentity } from './identity.js';
import { registerPayments } from './payments.js';
import { Problem, badRequest, problemBody, problemForStatus } from './problems.js';
import { info } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { registerTransactions } from './transactions.js';

export const SUPPORTED_VERSIONS = ['1.0'];
export const DEPRECATED_VERSIONS = ['0.9'];

const traceparentOf = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const isBankPath = (url: string): boolean => url === '/api' || url.startsWith('/api/') || url.startsWith('/id/');

export function buildServer(sb: Sandbox): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(text))));
  });

  app.addHook('onRequest', async (req, reply) => {
    if (!isBankPath(req.url)) return;
    const path = req.url.split('?')[0] ?? req.url;
    let delay = sb.faults.latencyMs;
    const allowed = sb.rateLimit?.take();
    if (allowed && !allowed.ok) {
      if (delay > 0) await sleep(delay);
      throw new Problem(429, 'too-many-requests', 'Too many requests', "The subscription's rate limit is exceeded.", {
        headers: { 'retry-after': String(allowed.retryAfterSeconds) },
      });
    }
    for (const rule of sb.faults.take(req.method, path)) {
      if (rule.kind === 'latency') delay += rule.latencyMs;
      else if (rule.kind === 'lostResponse') info(req).loseResponse = true;
      else if (rule.kind === 'misfit') info(req).misfit = { ...info(req).misfit, ...rule.set };
      else if (rule.kind === 'rateLimit') {
        if (delay > 0) await sleep(delay);
        throw new Problem(429, 'too-many-requests', 'Too many requests', 'Rate limit exceeded (injected fault).', {
          headers: { 'retry-after': String(rule.retryAfterSeconds) },
        });
      } else {
        if (delay > 0) await sleep(delay);
        throw problemForStatus(rule.status, 'Injected fault.');
      }
    }
    if (delay > 0) await sleep(delay);
    if (!req.url.startsWith('/api')) return;
    reply.header('api-supported-versions', SUPPORTED_VERSIONS.join(', '));
    reply.header('api-deprecated-versions', DEPRECATED_VERSIONS.join(', '));
    const version = req.headers['api-version'];
    if (
      typeof version === 'string' &&
      !SUPPORTED_VERSIONS.includes(version) &&
      !DEPRECATED_VERSIONS.includes(version)
    ) {
      throw badRequest(`api-version ${version} is not supported; supported: ${SUPPORTED_VERSIONS.join(', ')}.`);
    }
    const hasBody =
      req.headers['content-length'] !== undefined
        ? req.headers['content-length'] !== '0'
        : req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !/^application\/([a-z.+-]*\+)?json\b|^text\/json\b/i.test(req.headers['content-type'] ?? '')) {
      throw problemForStatus(415, 'Request bodies must be application/json.');
    }
    const psuIp = req.headers['psu-ip-address'];
    if (typeof psuIp === 'string' && isIP(psuIp) === 0)
      throw badRequest('PSU-IP-Address must be an IPv4 or IPv6 address.');
    const accept = req.headers.accept;
    if (accept && !/(application\/json|application\/\*|\*\/\*|text\/json|\+json)/i.test(accept)) {
      throw problemForStatus(406, 'This API answers application/json only.');
    }
  });

  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const config = req.routeOptions.config as { public?: boolean } | undefined;
    if (config?.public) return;
    const client = authenticate(sb, req);
    info(req).client = client;
    if (req.method !== 'POST') return;
    const key = req.headers['idempotency-key'];
    if (key === undefined) return;
    if (typeof key !== 'string' || !isUuid(key)) throw badRequest('Idempotency-Key must be a UUID.');
    const path = req.url.split('?')[0] ?? req.url;
    const lookup = sb.idempotency.begin(
      client.clientId,
      key,
      fingerprint(req.method, path, req.body ?? null),
      sb.clock.now().getTime(),
    );
    if (lookup.kind === 'mismatch') {
      throw new Problem(
        422,
        'idempotency-key-reused',
        'Idempotency key reused',
        'This Idempotency-Key was used with a different request; use a new key for a new request.',
      );
    }
    if (lookup.kind === 'in-flight')
      throw new Problem(409, 'conflict', 'Conflict', 'A request with this Idempotency-Key is still being processed.');
    if (lookup.kind === 'replay') {
      info(req).replayed = true;
      const r = lookup.response;
      if (r.location) reply.header('location', r.location);
      return reply
        .code(r.status === 201 ? 200 : r.status)
        .header('idempotent-replayed', 'true')
        .type(r.contentType)
        .send(r.body);
    }
    info(req).idempotencyKey = key;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const i = info(req);
    if (i.misfit && typeof payload === 'string') payload = JSON.stringify({ ...JSON.parse(payload), ...i.misfit });
    const client = i.client;
    if (client && i.idempotencyKey && !i.replayed) {
      const location = reply.getHeader('location');
      sb.idempotency.complete(
        client.clientId,
        i.idempotencyKey,
        {
          status: reply.statusCode,
          body: typeof payload === 'string' ? payload : '',
          contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
          location: typeof location === 'string' ? location : undefined,
        },
        sb.clock.now().getTime(),
      );
    }
    if (i.loseResponse) {
      // The work is committed (and its idempotent response stored); the answer never arrives.
      req.raw.socket?.destroy();
    }
    return payload;
  });

  app.setErrorHandler((error, req, reply) => {
    let problem: Problem;
    if (error instanceof Problem) problem = error;
    else {
      const status =
        typeof (error as { statusCode?: unknown }).statusCode === 'number'
          ? (error as { statusCode: number }).statusCode
          : 500;
      problem = problemForStatus(
        status,
        status >= 500 ? 'The sandbox failed to handle the request.' : (error as Error).message,
      );
      if (status >= 500) sb.logger?.error('sandbox handler failed', { error: (error as Error).message, url: req.url });
    }
    for (const [k, v] of Object.entries(problem.extra.headers ?? {})) reply.header(k, v);
    return reply
      .code(problem.status)
      .type('application/problem+json; charset=utf-8')
      .send(problemBody(problem, req.url.split('?')[0], traceparentOf(req.headers.traceparent)));
  });

  app.setNotFoundHandler((req, reply) => {
    const problem = problemForStatus(404, `No route ${req.method} ${req.url.split('?')[0] ?? ''}.`);
    return reply
      .code(404)
      .type('application/problem+json; charset=utf-8')
      .send(problemBody(problem, req.url.split('?')[0], traceparentOf(req.headers.traceparent)));
  });

  registerIdentity(app, sb);
  registerBanks(app, sb);
  registerAccounts(app, sb);
  registerTransactions(app, sb);
  registerConsents(app, sb);
  registerPayments(app, sb);
  registerBaskets(app, sb);
  registerControl(app, sb);
  registerCredits(app, sb);
  registerAccountStatus(app, sb);
  return app;
}
