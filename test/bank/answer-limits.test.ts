// Bounded reads (issue #50 Must 3): an endless or huge answer from the bank or its identity
// provider ends in ERR_BANK_ANSWER_TOO_LARGE naming kind, limit and endpoint, and the client
// stops reading (the server sees the connection dropped long before it runs out of data).
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER_LIMITS } from '../../src/bank/answer-limits.js';
import { HttpBankClient, isBankError, type BankError } from '../../src/bank/index.js';
import { Secret, silentLogger } from '../../src/log/index.js';

const SECRET = 'answer-limit-secret-7f3a';
const TOKEN = 'tok-answer-limit-9c1e';
const CHUNK = Buffer.alloc(64 * 1024, 'x');

let server: Server;
let base: string;
/** What the endpoint under test does; the token endpoint answers normally unless told. */
let hugeToken: boolean;
/** Bytes the server managed to write per endless answer, and how many requests each path saw. */
let written: number[];
let hits: Map<string, number>;

/** Writes an endless body as fast as the client reads it, until the client goes away. */
function endless(res: ServerResponse, prefix: string): void {
  let sent = 0;
  const log = written; // this test's list, even if the pump outlives it
  const index = log.push(0) - 1;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(prefix);
  const pump = (): void => {
    while (!res.destroyed) {
      sent += CHUNK.length;
      log[index] = sent;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
  };
  res.on('close', () => (log[index] = sent));
  pump();
}

beforeEach(async () => {
  hugeToken = false;
  written = [];
  hits = new Map();
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.set(`${req.method} ${path}`, (hits.get(`${req.method} ${path}`) ?? 0) + 1);
    req.resume();
    req.on('end', () => {
      if (path.endsWith('/connect/token')) {
        if (hugeToken) return endless(res, '{"access_token":"');
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ access_token: TOKEN, expires_in: 3600 }));
      }
      if (path === '/api/accounts') return endless(res, '{"accounts":[');
      if (path === '/api/bulk-payments/credit-transfer') return endless(res, '{"paymentId":"');
      if (path === '/api/bulk-payments/credit-transfer/announced') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 ** 40) });
        return res.write('{');
      }
      if (path.startsWith('/api/bulk-payments/credit-transfer/')) return endless(res, '{"paymentId":"');
      if (path === '/api/consents') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ consents: [{ consentId: 'c1', status: 'authorized' }] }));
      }
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(answerLimits?: { token?: number; page?: number; resource?: number }): HttpBankClient {
  return new HttpBankClient({
    baseUrl: `${base}/api`,
    authUrl: `${base}/auth`,
    tenantId: 'tenant-1',
    clientId: 'client-1',
    clientSecret: new Secret(SECRET),
    subscriptionId: 'sub-1',
    timeoutMs: 20_000,
    concurrency: 4,
    logger: silentLogger(),
    sleep: () => Promise.resolve(),
    ...(answerLimits ? { answerLimits } : {}),
  });
}

/** Runs one call on a fresh client and returns the error it must end in: ERR_BANK_ANSWER_TOO_LARGE. */
async function tooLarge(
  call: (bank: HttpBankClient) => Promise<unknown>,
  answerLimits?: { token?: number; page?: number; resource?: number },
): Promise<BankError> {
  const bank = client(answerLimits);
  try {
    const error = await call(bank).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isBankError(error)) throw new Error(`expected a BankError, got ${String(error)}`);
    expect(error.code).toBe('ERR_BANK_ANSWER_TOO_LARGE');
    return error;
  } finally {
    await bank.close();
  }
}

/** The server may have filled the socket buffers past the limit, but not much more. */
const SLACK = 32 * 1024 * 1024;

describe('answer size limits', () => {
  it('cuts off an endless single-resource answer with a located error, and reads no further', async () => {
    const error = await tooLarge((bank) => bank.getBulkPayment('org-1', 'p1'));
    expect(error.message).toContain('GET /api/bulk-payments/credit-transfer/p1');
    expect(error.message).toContain(`${DEFAULT_ANSWER_LIMITS.resource} bytes allowed for a resource answer`);
    expect(error.message).not.toContain(TOKEN);
    expect(error.retryable).toBe(false);
    expect(hits.get('GET /api/bulk-payments/credit-transfer/p1')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written[0]).toBeLessThan(DEFAULT_ANSWER_LIMITS.resource + SLACK);
  });

  it('cuts off an endless list page under the page limit', async () => {
    const iterate = async (bank: HttpBankClient): Promise<void> => {
      for await (const _ of bank.listAccounts({ resourceGroupName: 'org-1' })) void _;
    };
    const error = await tooLarge(iterate, { page: 1024 * 1024 });
    expect(error.message).toMatch(/GET \/api\/accounts is larger than the 1048576 bytes allowed for a page answer/);
  });

  it('refuses an answer whose Content-Length already exceeds the limit', async () => {
    const error = await tooLarge((bank) => bank.getBulkPayment('org-1', 'announced'));
    expect(error.message).toContain(`announced ${2 ** 40} bytes`);
  });

  it('cuts off an endless token answer without naming the secret', async () => {
    hugeToken = true;
    const error = await tooLarge((bank) => bank.getConsent('c1'));
    expect(error.message).toContain('POST /auth/tenant-1/connect/token');
    expect(error.message).toContain(`${DEFAULT_ANSWER_LIMITS.token} bytes allowed for a token answer`);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(SECRET);
    expect(written[0]).toBeLessThan(DEFAULT_ANSWER_LIMITS.token + SLACK);
  });

  it('makes a cut-off POST an unknown outcome and never sends it again', async () => {
    const error = await tooLarge(
      (bank) => bank.createBulkPayment('org-1', { paymentLines: [] } as never, { idempotencyKey: 'key-1' }),
      { resource: 256 * 1024 },
    );
    expect(error.outcomeUnknown).toBe(true);
    expect(hits.get('POST /api/bulk-payments/credit-transfer')).toBe(1);
  });

  it('survives four endless answers at once with concurrency 4, and still works afterwards', async () => {
    const bank = client();
    try {
      const results = await Promise.allSettled(['a', 'b', 'c', 'd'].map((id) => bank.getBulkPayment('org-1', id)));
      for (const result of results) {
        expect(result.status).toBe('rejected');
        expect((result as PromiseRejectedResult).reason).toMatchObject({ code: 'ERR_BANK_ANSWER_TOO_LARGE' });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(written).toHaveLength(4);
      for (const bytes of written) expect(bytes).toBeLessThan(DEFAULT_ANSWER_LIMITS.resource + SLACK);
      const consents: string[] = [];
      for await (const c of bank.listConsents()) consents.push(c.consentId);
      expect(consents).toEqual(['c1']);
    } finally {
      await bank.close();
    }
  });
});
