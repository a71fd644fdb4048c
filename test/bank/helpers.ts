// Shared set-up for the bank client tests: an in-process sandbox over real HTTP, a client
// pointed at it, a sleep that records waits instead of waiting, and a log that can be read.
import { PassThrough } from 'node:stream';
import { request } from 'undici';
import { HttpBankClient, type BankClientOptions } from '../../src/bank/index.js';
import { createLogger, Secret } from '../../src/log/index.js';
import { SEED, startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export { SEED };

export interface Harness {
  sandbox: RunningSandbox;
  client: HttpBankClient;
  waits: number[];
  logLines: () => Record<string, unknown>[];
  logText: () => string;
  control: (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<unknown>;
  close: () => Promise<void>;
}

export async function startHarness(
  options: { sandbox?: SandboxOptions; client?: Partial<BankClientOptions> } = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, ...options.sandbox });
  const waits: number[] = [];
  const stream = new PassThrough();
  let log = '';
  stream.on('data', (d: Buffer) => (log += d.toString()));
  const client = new HttpBankClient({
    baseUrl: sandbox.urls.baseUrl,
    authUrl: sandbox.urls.authUrl,
    tenantId: SEED.tenant,
    clientId: SEED.clientId,
    clientSecret: new Secret(SEED.clientSecret),
    subscriptionId: SEED.subscriptionId,
    timeoutMs: 5_000,
    logger: createLogger({ level: 'debug', format: 'json', stream }),
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    ...options.client,
  });
  const control = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> => {
    const res = await request(`${sandbox.urls.controlUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) throw new Error(`control ${method} ${path}: ${res.statusCode} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    sandbox,
    client,
    waits,
    logText: () => log,
    logLines: () =>
      log
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    control,
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}

/** Collects an async iterable. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const company = { resourceGroupName: SEED.resourceGroupName };

/** A valid one-line bulk from the operating account, executing two days after the sandbox start. */
export function bulk(endToEnd = 'E2E-1', debtorIban: string = SEED.operatingIban) {
  return {
    debtorAccount: { iban: debtorIban },
    debtorName: 'Test Company AS',
    requestedExecutionDate: '2026-01-07',
    batchBookingPreferred: false,
    paymentLines: [
      {
        endToEndIdentification: endToEnd,
        instructedAmount: { currency: 'NOK', amount: '1500.00' },
        creditorAccount: { iban: 'NO5015031234570' },
        creditorName: 'Supplier AS',
        remittanceInformationUnstructured: 'Invoice 1001',
        instructionPriority: 'normal',
      },
    ],
  };
}
