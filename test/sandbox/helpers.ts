// A tiny HTTP client for the conformance suite: real sockets against a sandbox on port 0.
import { startSandbox, SEED, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export { SEED };

/** A parsed JSON body of the API under test: untyped on purpose, the tests assert its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Res {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

export interface Harness {
  sb: RunningSandbox;
  token(clientId?: string, secret?: string): Promise<string>;
  call(
    method: string,
    path: string,
    opts?: { token?: string | null; headers?: Record<string, string>; body?: unknown; key?: string; scope?: boolean },
  ): Promise<Res>;
  control(method: string, path: string, body?: unknown): Promise<Res>;
  /** Back to the seed (tokens included) and forget the cached token. */
  reset(): void;
  close(): Promise<void>;
}

export const CONTEXT = { 'subscription-id': SEED.subscriptionId, 'resource-group-name': SEED.resourceGroupName };

async function read(r: Response): Promise<Res> {
  const text = await r.text();
  let body: Json = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: r.status, headers: r.headers, body, text };
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const sb = await startSandbox(options);
  let cached: string | undefined;
  const token = async (clientId: string = SEED.clientId, secret: string = SEED.clientSecret): Promise<string> => {
    const r = await fetch(sb.urls.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
    });
    const body = (await r.json()) as { access_token: string };
    return body.access_token;
  };
  return {
    sb,
    token,
    async call(method, path, opts = {}) {
      if (opts.token === undefined && cached === undefined) cached = await token();
      const headers: Record<string, string> = {
        'api-version': '1.0',
        ...(opts.scope === false ? {} : CONTEXT),
        ...opts.headers,
      };
      const t = opts.token === undefined ? cached : opts.token;
      if (t) headers.authorization = `Bearer ${t}`;
      if (opts.key) headers['idempotency-key'] = opts.key;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const url = path.startsWith('http') ? path : `${sb.urls.baseUrl}${path}`;
      return read(
        await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
      );
    },
    async control(method, path, body) {
      return read(
        await fetch(`${sb.urls.controlUrl}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
        }),
      );
    },
    reset() {
      sb.reset();
      cached = undefined;
    },
    close: () => sb.close(),
  };
}

/** A valid bulk on the normal operating account, executing on the given date. */
export function bulkBody(date: string, lines = 1, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    debtorAccount: { iban: SEED.operatingIban },
    debtorName: 'Sandbox AS',
    requestedExecutionDate: date,
    batchBookingPreferred: false,
    paymentLines: Array.from({ length: lines }, (_, i) => ({
      endToEndIdentification: `E2E-${i + 1}`,
      instructedAmount: { currency: 'NOK', amount: `${100 + i}.50` },
      creditorAccount: { iban: 'NO6315061111112' },
      creditorName: `Creditor ${i + 1}`,
      remittanceInformationUnstructured: `Invoice ${i + 1}`,
      instructionPriority: 'normal',
    })),
    ...overrides,
  };
}

export const TRACE = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;
export const DAY = 86_400_000;
