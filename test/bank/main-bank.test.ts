import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { bankClientOptions, createBankClient } from '../../src/main/bank.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'settle-main-bank-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createBankClient', () => {
  it('maps the SETTLE_* environment, without a config file, to the client options', () => {
    const config = loadConfig({
      cwd: dir,
      env: {
        SETTLE_BANK_URL: 'https://bank.example/api',
        SETTLE_AUTH_URL: 'https://id.example',
        SETTLE_TENANT_ID: 'tenant-7',
        SETTLE_CLIENT_ID: 'client-7',
        SETTLE_CLIENT_SECRET: 'env-secret-123456',
        SETTLE_SUBSCRIPTION_ID: 'sub-7',
        SETTLE_CHANNEL_TYPE: 'psd2',
      },
    });
    const options = bankClientOptions(config, silentLogger());
    expect(options).toMatchObject({
      baseUrl: 'https://bank.example/api',
      authUrl: 'https://id.example',
      tenantId: 'tenant-7',
      clientId: 'client-7',
      subscriptionId: 'sub-7',
      channelType: 'psd2',
      apiVersion: '1.0',
      timeoutMs: 30_000,
      maxRetries: 5,
      concurrency: 4,
    });
    expect(options.clientSecret?.reveal()).toBe('env-secret-123456');
    expect(JSON.stringify({ ...options, logger: undefined })).not.toContain('env-secret-123456');
  });

  it('reads the secret from SETTLE_CLIENT_SECRET_FILE and builds a client', async () => {
    const file = join(dir, 'secret');
    await writeFile(file, 'file-secret-abcdef\n');
    const config = loadConfig({ cwd: dir, env: { SETTLE_CLIENT_SECRET_FILE: file } });
    expect(bankClientOptions(config, silentLogger()).clientSecret?.reveal()).toBe('file-secret-abcdef');
    const client = createBankClient(config, silentLogger());
    await client.close();
  });
});
