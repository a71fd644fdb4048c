// Account and consent events through `settle serve` over real HTTP: the sandbox bank, subscribed
// to serve's webhook with its Authorization header, raises a transaction received (serve fetches
// that account soon after, coalesced), an account status change (the account stops being
// usable), a consent status change (the consents row follows) and a type settle does not read
// (counted and acknowledged, never dead-lettered).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp, type App } from '../../src/main/app.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { sleep } from './helpers.js';
import { sandboxConfigHead } from '../support/sandbox-config.js';

const AUTH = 'Bearer account-events-51c0';

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('account and consent events in serve', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let app: App;
  let running: RunningServe;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-account-events-'));
    sandbox = await startSandbox({ webhookRetryBaseMs: 20 });
    await writeFile(
      join(dir, 'settle.yaml'),
      [
        ...sandboxConfigHead(dir, sandbox),
        'server:',
        '  webhookAuthorization: { env: HOOK_AUTH }',
        'companies:',
        '  - id: sandbox-as',
        '    name: Sandbox AS',
        `    organisationNumber: "${SEED.resourceGroupName}"`,
        `    root: ${dir}/sandbox-as`,
        '',
      ].join('\n'),
    );
    const config = loadConfig({
      file: join(dir, 'settle.yaml'),
      cwd: dir,
      env: { BANK_SECRET: 'sandbox-secret', HOOK_AUTH: AUTH },
    });
    app = await createApp(config, silentLogger(), new ManualClock(sandbox.sandbox.clock.now()));
    running = await startServe(app, { port: 0, host: '127.0.0.1', scheduler: false, eventFetchDelayMs: 300 });
    // The first fetch writes the company's accounts (with their bank status).
    expect(await running.scheduler.trigger('statements')).toMatchObject({ ran: true });
    const res = await fetch(`${sandbox.urls.controlUrl}/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'settle',
        events: [],
        delivery: { url: `${running.url}/webhooks/banking`, authorizationHeader: AUTH },
        retryPolicy: { maxEventDeliveryAttempts: 3 },
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await until('the subscription handshake', async () => {
      const list = (await (await fetch(`${sandbox.urls.controlUrl}/subscriptions`)).json()) as {
        subscriptions: { id: string; status: string }[];
      };
      return list.subscriptions.find((s) => s.id === id && s.status === 'active');
    });
  });
  afterAll(async () => {
    await running?.stop();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function credit(amount: string, remittance: string): Promise<string> {
    const res = await fetch(`${sandbox.urls.controlUrl}/credits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: SEED.operatingAccountId, amount, remittance }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { transactionId: string }).transactionId;
  }

  it('fetches the account a transaction event names, without waiting for the schedule', async () => {
    const before = await app.store.statements.listTransactions(SEED.operatingAccountId);
    const ids = [await credit('100.00', 'first'), await credit('200.00', 'second'), await credit('300.00', 'third')];
    const stored = await until('the credits in the database', async () => {
      const all = await app.store.statements.listTransactions(SEED.operatingAccountId);
      const ours = all.filter((t) => ids.includes(t.bankTransactionId));
      return ours.length === ids.length ? all : undefined;
    });
    expect(stored.length).toBe(before.length + 3);
  });

  it('marks an account unusable when the bank disables it, and usable again when it enables it', async () => {
    const usable = async () =>
      (await app.store.accountStatus.list('sandbox-as')).find((a) => a.accountId === SEED.approvalAccountId);
    expect(await usable()).toMatchObject({ status: 'enabled', usable: true });
    const post = (status: string) =>
      fetch(`${sandbox.urls.controlUrl}/accounts/${SEED.approvalAccountId}/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status }),
      });
    expect((await post('disabled')).status).toBe(200);
    await until('the disabled status', async () => ((await usable())?.usable === false ? true : undefined));
    expect(await usable()).toMatchObject({ status: 'disabled', usable: false });
    expect((await post('enabled')).status).toBe(200);
    await until('the enabled status', async () => ((await usable())?.usable === true ? true : undefined));
  });

  it('counts and acknowledges an event type it does not read', async () => {
    const account = sandbox.sandbox.state.accounts.get(SEED.operatingAccountId)!;
    sandbox.sandbox.emit('banking.account.renamed', account, { id: account.id, name: 'Nytt navn' });
    const line = await until('the unknown-event counter', async () => {
      const body = (await running.metrics.scrape()).body;
      return body
        .split('\n')
        .find((l) => l.startsWith('settle_webhook_unknown_events_total{type="banking.account.renamed"}'));
    });
    expect(line.endsWith(' 1')).toBe(true);
    await sandbox.sandbox.events.idle();
    expect(sandbox.sandbox.events.deadLetters).toEqual([]);
  });

  it('follows a consent status event in the consents table', async () => {
    const earlier = new Date(sandbox.sandbox.clock.now().getTime() - 3_600_000);
    await app.store.consents.record({
      company: 'sandbox-as',
      bankId: 'testbank',
      consentId: SEED.consentId,
      status: 'Authorized',
      expiresAt: new Date(earlier.getTime() + 5 * 86_400_000),
      statusAt: earlier,
      source: 'bank',
    });
    await app.bank().deleteConsent(SEED.consentId);
    const row = await until('the revoked consent', async () => {
      const [c] = await app.store.consents.list('sandbox-as');
      return c?.status === 'Revoked' ? c : undefined;
    });
    expect(row).toMatchObject({ consentId: SEED.consentId, source: 'event' });
    // A revoked consent is no longer near expiry: the alert's input leaves it out.
    expect(await app.store.consents.expiringBy(new Date(earlier.getTime() + 30 * 86_400_000))).toEqual([]);
  });
});
