// What goes on the wire (spec §4.2, §5): a recording HTTP server stands in for the bank so every
// request header can be checked.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HttpBankClient } from '../../src/bank/index.js';
import { Secret, silentLogger } from '../../src/log/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let seen: Seen[];
let client: HttpBankClient;

beforeEach(async () => {
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/connect/token'))
        return res.end(JSON.stringify({ access_token: 'tok-123456789', expires_in: 3600, token_type: 'Bearer' }));
      if (req.url?.startsWith('/api/banks')) return res.end(JSON.stringify({ banks: [], _links: { next: null } }));
      if (req.url === '/api/consents')
        return res.end(
          JSON.stringify({
            consents: [{ consentId: 'c1', status: 'authorized' }],
            _links: { next: { href: '/api/consents?cursor=2' } },
          }),
        );
      if (req.url === '/api/consents?cursor=2')
        return res.end(JSON.stringify({ consents: [{ consentId: 'c2', status: 'created' }], nextCursor: '3' }));
      if (req.url === '/api/consents?cursor=3')
        return res.end(
          JSON.stringify({
            consents: [{ consentId: 'c3', status: 'created' }],
            _links: { next: { href: `http://${req.headers.host ?? ''}/api/consents?cursor=2` } },
          }),
        );
      if (req.url?.startsWith('/api/accounts?'))
        return res.end(
          JSON.stringify({
            accounts: [{ id: 'a1' }],
            _links: { next: 'https://elsewhere.example/api/accounts/page2' },
          }),
        );
      if (req.url === '/api/signing-baskets') {
        // First answer: "still being processed"; then the stored answer, as a replay.
        const replay = seen.filter((x) => x.url === '/api/signing-baskets').length > 1;
        res.statusCode = replay ? 200 : 409;
        if (replay) res.setHeader('idempotent-replayed', 'true');
        return res.end(
          JSON.stringify(
            replay
              ? { basketId: 'b1', paymentIds: ['p1'] }
              : { title: 'Conflict', status: 409, detail: 'still processing' },
          ),
        );
      }
      if (req.url?.startsWith('/api/bulk-payments')) {
        res.statusCode = 201;
        return res.end(JSON.stringify({ paymentId: 'p1', transactionStatus: 'rcvd' }));
      }
      return res.end(JSON.stringify({ id: 'a1', consentId: 'c1', status: 'authorized' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  client = new HttpBankClient({
    baseUrl: `http://127.0.0.1:${port}/api`,
    authUrl: `http://127.0.0.1:${port}/id`,
    tenantId: 'tenant-1',
    clientId: 'client-1',
    clientSecret: new Secret('s3cret-value-xyz'),
    subscriptionId: 'sub-1',
    redirectUri: 'https://erp.example/after-sca',
    logger: silentLogger(),
  });
});

afterEach(async () => {
  await client.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const last = (path: string): Seen => {
  const found = seen.filter((s) => s.url.startsWith(path)).at(-1);
  if (!found) throw new Error(`no request to ${path}`);
  return found;
};

describe('request headers', () => {
  it('asks for the token with client credentials in a form body at the tenant token URL', async () => {
    await client.getConsent('c1');
    const token = last('/id/tenant-1/connect/token');
    expect(token.method).toBe('POST');
    expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-1',
      client_secret: 's3cret-value-xyz',
    });
    expect(last('/api/consents/c1').headers.authorization).toBe('Bearer tok-123456789');
  });

  it('sends api-version on every call and no Authorization on GET /banks', async () => {
    for await (const _ of client.listBanks({ countryCode: 'NO' })) void _;
    await client.getConsent('c1');
    expect(seen.filter((s) => s.url.startsWith('/api')).every((s) => s.headers['api-version'] === '1.0')).toBe(true);
    expect(last('/api/banks').headers.authorization).toBeUndefined();
    expect(last('/api/banks').url).toBe('/api/banks?countryCode=NO');
  });

  it('names the resource group for data retrieval and sends PSU-IP-Address only when a person is present', async () => {
    await client.getAccount({ resourceGroupName: '999999999' }, 'a1');
    const batch = last('/api/accounts/a1');
    expect(batch.headers).toMatchObject({
      'channel-type': 'openBanking',
      'subscription-id': 'sub-1',
      'resource-group-name': '999999999',
    });
    expect(batch.headers['psu-ip-address']).toBeUndefined();
    expect(batch.headers['consent-id']).toBeUndefined();
    await client.getAccount({ resourceGroupName: '999999999' }, 'a1', {}, { psuIpAddress: '192.0.2.10' });
    expect(last('/api/accounts/a1').headers['psu-ip-address']).toBe('192.0.2.10');
  });

  it('sends Scopes instead of Subscription-Id when asked to', async () => {
    await client.getAccount({ scopes: ['/subscriptions/sub-1'] }, 'a1');
    const h = last('/api/accounts/a1').headers;
    expect(h.scopes).toBe('/subscriptions/sub-1');
    expect(h['subscription-id']).toBeUndefined();
  });

  it('sends Consent-ID, TPP-Redirect-URI and the Idempotency-Key on payment initiation', async () => {
    const created = await client.createBulkPayment(
      '999999999',
      { debtorAccount: { iban: 'NO9386011117947' }, requestedExecutionDate: '2026-01-07', paymentLines: [] },
      { idempotencyKey: '5bfa15da-0969-46a3-820d-be0ec7a16c24', consentId: 'c1' },
    );
    expect(created).toMatchObject({ paymentId: 'p1', transactionStatus: 'RCVD', replayed: false, httpStatus: 201 });
    const h = last('/api/bulk-payments/credit-transfer').headers;
    expect(h).toMatchObject({
      'consent-id': 'c1',
      'subscription-id': 'sub-1',
      'resource-group-name': '999999999',
      'tpp-redirect-uri': 'https://erp.example/after-sca',
      'idempotency-key': '5bfa15da-0969-46a3-820d-be0ec7a16c24',
      'content-type': 'application/json',
    });
  });
});

describe('idempotent POST', () => {
  it('asks again after a 409 "in progress" when the POST carries its key, and reports the replay', async () => {
    const basket = await client.createSigningBasket('999999999', ['p1'], {
      idempotencyKey: '5bfa15da-0969-46a3-820d-be0ec7a16c24',
    });
    expect(basket).toMatchObject({ basketId: 'b1', replayed: true, paymentIds: ['p1'] });
    expect(seen.filter((x) => x.url === '/api/signing-baskets')).toHaveLength(2);
  });

  it('does not repeat a POST without a key after a 409', async () => {
    await expect(client.createSigningBasket('999999999', ['p1'])).rejects.toMatchObject({
      code: 'ERR_BANK_CONFLICT',
      status: 409,
      detail: 'still processing',
    });
    expect(seen.filter((x) => x.url === '/api/signing-baskets')).toHaveLength(1);
  });
});

describe('paging', () => {
  it('follows relative links and bare cursors, and stops with an error when a page repeats', async () => {
    const ids: string[] = [];
    const error: unknown = await (async () => {
      for await (const c of client.listConsents()) ids.push(c.consentId);
    })().catch((e: unknown) => e);
    expect(ids).toEqual(['c1', 'c2', 'c3']);
    expect(error).toMatchObject({ code: 'ERR_BANK_INVALID_RESPONSE' });
    expect(seen.filter((s) => s.url.startsWith('/api/consents')).map((s) => s.url)).toEqual([
      '/api/consents',
      '/api/consents?cursor=2',
      '/api/consents?cursor=3',
    ]);
  });

  it('refuses to follow a next link that points away from the bank', async () => {
    const ids: string[] = [];
    const error: unknown = await (async () => {
      for await (const a of client.listAccounts({ resourceGroupName: '999999999' }, { iban: 'NO9386011117947' }))
        ids.push(a.id);
    })().catch((e: unknown) => e);
    expect(ids).toEqual(['a1']);
    expect(error).toMatchObject({
      code: 'ERR_BANK_INVALID_RESPONSE',
      message: expect.stringContaining('elsewhere.example') as string,
    });
  });
});
