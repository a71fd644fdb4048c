// The consents table is written by every path that learns about a consent — onboarding
// (`settle consents create`, refresh), the nightly read of the bank's consents, consent events
// — and the "consent near expiry" alert and the reconciliation report read it. Against the
// sandbox bank over HTTP and a real SQLite database.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyncConsents } from '../../../jobs/consents/sync.js';
import type { BankingEvent } from '../../../src/bank/index.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import { silentLogger } from '../../../src/log/index.js';
import { createApp, type App } from '../../../src/main/app.js';
import { writeDemoConfig } from '../../../src/main/demo.js';
import { handleBankEvents } from '../../../jobs/status/events.js';
import { SEED, startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { scanForAttention } from '../../../src/server/index.js';
import { runSettle } from '../../support/cli.js';

const DAY = 86_400_000;

describe('consents known to settle', { timeout: 120_000 }, () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let config: Readonly<Config>;
  let configFile: string;
  let app: App;
  const env = () => ({ SETTLE_CLIENT_SECRET: SEED.clientSecret });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-consents-'));
    sandbox = await startSandbox({ port: 0 });
    configFile = await writeDemoConfig(dir, sandbox);
    // A second company, onboarded below through the CLI.
    await writeFile(
      configFile,
      `  - id: nordic\n    name: Nordic AS\n    organisationNumber: "912345678"\n    root: ./nordic\n`,
      { flag: 'a' },
    );
    config = loadConfig({ file: configFile, cwd: dir, env: env() });
    // The system clock, as the CLI child process below uses.
    app = await createApp(config, silentLogger());
  });
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const consent = (id: string) => sandbox.sandbox.state.consents.get(id)!;

  it('records the bank’s consent of each company at the nightly read, and the alert fires near its expiry', async () => {
    const expires = new Date(app.clock.now().getTime() + 5 * DAY).toISOString();
    consent(SEED.consentId).expiresAtUtc = expires;
    const synced = await runSyncConsents(
      { store: app.store, bank: app.bank(), clock: app.clock, logger: silentLogger() },
      config.companies,
    );
    expect(synced).toContainEqual({
      company: 'acme',
      bankId: 'testbank',
      consentId: SEED.consentId,
      status: 'Authorized',
      expiresAt: expires,
    });
    const stored = (await app.store.consents.list('acme')).find((c) => c.bankId === 'testbank');
    expect(stored).toMatchObject({
      bankId: 'testbank',
      consentId: SEED.consentId,
      status: 'Authorized',
      source: 'bank',
    });

    const findings = await scanForAttention({
      attention: app.store.attention,
      clock: app.clock,
      warnBeforeMs: 7 * DAY,
      linkWarnBeforeMs: DAY,
    });
    expect(findings.filter((f) => f.kind === 'consent-expiring')).toEqual([
      expect.objectContaining({
        key: `consent-expiring:${SEED.consentId}:${expires}`,
        company: 'acme',
        data: { consentId: SEED.consentId, bankId: 'testbank', expiresAt: expires },
      }),
    ]);
    const report = await app.reconcileDeps('r1').consents!(config.companies[0]!);
    expect(report).toEqual([
      { company: 'acme', consentId: SEED.consentId, bank: 'testbank', validUntil: expires.slice(0, 10) },
    ]);
  });

  it('applies a consent event to the consent it names, and never lets an older event overwrite a newer status', async () => {
    const event = (status: string, time: Date, id: string): BankingEvent => ({
      kind: 'consent.status.updated',
      meta: { id, type: 'banking.consent.status.updated', source: 'sandbox', time: time.toISOString() },
      consentId: SEED.consentId,
      status,
      data: {},
    });
    const now = app.clock.now();
    const deps = { store: app.store, clock: app.clock, logger: silentLogger() };
    const handled = await handleBankEvents(deps, [event('Revoked', new Date(now.getTime() + 1000), 'e1')]);
    expect(handled.map((h) => h.outcome)).toEqual(['consent-updated']);
    await handleBankEvents(deps, [event('Authorized', new Date(now.getTime() - DAY), 'e2')]);
    const stored = (await app.store.consents.list('acme')).find((c) => c.bankId === 'testbank');
    expect(stored).toMatchObject({ status: 'Revoked', source: 'event' });
    const findings = await scanForAttention({
      attention: app.store.attention,
      clock: app.clock,
      warnBeforeMs: 7 * DAY,
      linkWarnBeforeMs: DAY,
    });
    expect(findings.filter((f) => f.kind === 'consent-expiring')).toEqual([]);
    consent(SEED.consentId).status = 'Authorized';
  });

  it('records a consent created by `settle consents create` at once, and marks one the bank no longer lists', async () => {
    const created = await runSettle(
      ['--config', configFile, 'consents', 'create', '--bank', 'testbank', '--org', '912345678', '--json'],
      { cwd: dir, env: { ...env(), SETTLE_LOG_LEVEL: 'warn' } },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { consentId } = JSON.parse(created.stdout) as { consentId: string };
    const [stored] = await app.store.consents.list('nordic');
    expect(stored).toMatchObject({ bankId: 'testbank', consentId, source: 'onboarding' });

    sandbox.sandbox.state.consents.delete(consentId);
    const synced = await runSyncConsents(
      { store: app.store, bank: app.bank(), clock: app.clock, logger: silentLogger() },
      config.companies,
    );
    expect(synced).toContainEqual({ company: 'nordic', bankId: 'testbank', consentId, status: 'Deleted' });
    expect((await app.store.consents.list('nordic'))[0]).toMatchObject({ consentId, status: 'Deleted' });
  });
});
