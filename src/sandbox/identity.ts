// The identity provider: POST /id/{tenant}/connect/token, OAuth 2.0 client credentials
// (spec §5). Errors follow RFC 6749 §5.2 ({error, error_description}), as a real IdP answers,
// not problem details. Tokens are opaque strings that expire on the sandbox clock.
import type { FastifyInstance } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Sandbox } from './sandbox.js';

const KNOWN_SCOPES = new Set(['api', 'services.banking', 'banking.ais.read', 'banking.channel.psd2']);

export function registerIdentity(app: FastifyInstance, sb: Sandbox): void {
  app.post<{ Params: { tenant: string } }>('/id/:tenant/connect/token', async (req, reply) => {
    const oauthError = (status: number, error: string, description: string): unknown =>
      reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
    const tenantKnown = [...sb.state.clients.values()].some((c) => c.tenant === req.params.tenant);
    if (!tenantKnown) return oauthError(400, 'invalid_request', `Unknown tenant ${req.params.tenant}.`);
    if (!/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) {
      return oauthError(400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded.');
    }
    const form = (req.body ?? {}) as Record<string, string>;
    let clientId = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        clientId = decodeURIComponent(decoded.slice(0, colon));
        secret = decodeURIComponent(decoded.slice(colon + 1));
      }
    }
    if (form.grant_type === undefined) return oauthError(400, 'invalid_request', 'grant_type is required.');
    if (form.grant_type !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'Only client_credentials is supported.');
    if (!clientId || !secret) return oauthError(400, 'invalid_request', 'client_id and client_secret are required.');
    const client = sb.state.clients.get(clientId);
    if (!client || client.tenant !== req.params.tenant || !sameSecret(client.secret, secret)) {
      return oauthError(401, 'invalid_client', 'Client authentication failed.');
    }
    const requested = (form.scope ?? '').split(' ').filter(Boolean);
    const unknown = requested.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) return oauthError(400, 'invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
    const token = randomBytes(32).toString('base64url');
    const lifetime = sb.options.tokenLifetimeSeconds;
    const scopes = requested.length > 0 ? requested : ['api'];
    sb.state.tokens.set(token, {
      clientId: client.clientId,
      tenant: client.tenant,
      expiresAt: sb.clock.now().getTime() + lifetime * 1000,
      scopes,
    });
    return reply
      .header('cache-control', 'no-store')
      .send({ access_token: token, expires_in: lifetime, token_type: 'Bearer', scope: scopes.join(' ') });
  });
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
