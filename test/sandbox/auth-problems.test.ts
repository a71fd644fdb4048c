import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, SEED, TRACE, type Harness, type Json } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

async function tokenRequest(
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' },
  url = h.sb.urls.tokenUrl,
) {
  const r = await fetch(url, { method: 'POST', headers, body });
  return { status: r.status, body: (await r.json()) as Json };
}

describe('identity provider', () => {
  it('issues a Bearer token for 3600 s with scope api for the seeded client', async () => {
    const r = await tokenRequest('grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ expires_in: 3600, token_type: 'Bearer', scope: 'api' });
    expect(typeof r.body.access_token).toBe('string');
  });

  it('accepts client credentials in HTTP Basic as well as in the form', async () => {
    const basic = Buffer.from('sandbox-client:sandbox-secret').toString('base64');
    const r = await tokenRequest('grant_type=client_credentials', {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${basic}`,
    });
    expect(r.status).toBe(200);
  });

  it('refuses a wrong secret with 401 invalid_client and never echoes the secret', async () => {
    const r = await tokenRequest(
      'grant_type=client_credentials&client_id=sandbox-client&client_secret=wrong-secret-123',
    );
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_client');
    expect(JSON.stringify(r.body)).not.toContain('wrong-secret-123');
  });

  it('refuses another grant type, a JSON body and an unknown tenant', async () => {
    expect(
      (await tokenRequest('grant_type=password&client_id=sandbox-client&client_secret=sandbox-secret')).body.error,
    ).toBe('unsupported_grant_type');
    const json = await tokenRequest(JSON.stringify({ grant_type: 'client_credentials' }), {
      'content-type': 'application/json',
    });
    expect(json.status).toBe(400);
    const tenant = await tokenRequest(
      'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret',
      undefined,
      h.sb.urls.tokenUrl.replace('/sandbox/', '/nobody/'),
    );
    expect(tenant.status).toBe(400);
  });

  it('issues a token for the requested scopes; one without "api" is refused by the API with 403', async () => {
    const r = await tokenRequest(
      'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret&scope=banking.ais.read',
    );
    expect(r.body.scope).toBe('banking.ais.read');
    expect((await h.call('GET', '/accounts', { token: r.body.access_token })).status).toBe(403);
    const both = await tokenRequest(
      'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret&scope=services.banking%20api',
    );
    expect((await h.call('GET', '/accounts', { token: both.body.access_token })).status).toBe(200);
    expect(
      (
        await tokenRequest(
          'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret&scope=admin',
        )
      ).body.error,
    ).toBe('invalid_scope');
  });

  it('lets a token expire after 3600 s of sandbox time', async () => {
    const token = await h.token();
    h.sb.advance(3599_000);
    expect((await h.call('GET', '/accounts', { token })).status).toBe(200);
    h.sb.advance(1_000);
    const r = await h.call('GET', '/accounts', { token });
    expect(r.status).toBe(401);
    expect(r.body.type).toMatch(/#access-unauthorized$/);
  });
});

describe('problem details and cross-cutting headers', () => {
  it('answers a missing token with 401 problem details carrying a W3C trace id', async () => {
    const r = await h.call('GET', '/accounts', { token: null });
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(r.body).toMatchObject({ title: 'Access unauthorized', status: 401 });
    expect(r.body.type).toMatch(/^https:\/\/.+#access-unauthorized$/);
    expect(r.body.traceId).toMatch(TRACE);
    expect(typeof r.body.detail).toBe('string');
  });

  it('keeps the trace id of an incoming traceparent in the problem traceId', async () => {
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const r = await h.call('GET', '/accounts/nope', { headers: { traceparent: `00-${trace}-00f067aa0ba902b7-01` } });
    expect(r.body.traceId).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-01$`));
  });

  it('sends api-supported-versions and api-deprecated-versions on every API response, errors included', async () => {
    for (const r of [await h.call('GET', '/accounts'), await h.call('GET', '/accounts', { token: null })]) {
      expect(r.headers.get('api-supported-versions')).toContain('1.0');
      expect(r.headers.get('api-deprecated-versions')).not.toBeNull();
    }
  });

  it('refuses an api-version it does not support with 400', async () => {
    const r = await h.call('GET', '/accounts', { headers: { 'api-version': '7.0' } });
    expect(r.status).toBe(400);
    expect(r.body.type).toMatch(/#bad-request$/);
  });

  it('answers 403 #access-forbidden for a subscription outside the client grants', async () => {
    const r = await h.call('GET', '/accounts', {
      headers: { 'subscription-id': SEED.otherSubscriptionId, 'resource-group-name': SEED.otherResourceGroupName },
    });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ title: 'Access was forbidden', status: 403 });
    expect(r.body.type).toMatch(/#access-forbidden$/);
  });

  it('answers 403 for an account of another subscription, even by id', async () => {
    const r = await h.call('GET', `/accounts/${SEED.otherAccountId}`);
    expect(r.status).toBe(403);
  });

  it('answers unknown routes and non-JSON bodies with problem details', async () => {
    const missing = await h.call('GET', '/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.traceId).toMatch(TRACE);
    const r = await fetch(`${h.sb.urls.baseUrl}/signing-baskets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await h.token()}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(r.status).toBe(415);
    expect(((await r.json()) as Json).type).toMatch(/#unsupported-media-type$/);
  });

  it('refuses a PSU-IP-Address that is not an IP address', async () => {
    expect((await h.call('GET', '/accounts', { headers: { 'psu-ip-address': 'localhost' } })).status).toBe(400);
    expect((await h.call('GET', '/accounts', { headers: { 'psu-ip-address': '192.0.2.10' } })).status).toBe(200);
  });

  it('answers 406 when the client does not accept JSON', async () => {
    const r = await h.call('GET', '/accounts', { headers: { accept: 'text/html' } });
    expect(r.status).toBe(406);
  });
});
