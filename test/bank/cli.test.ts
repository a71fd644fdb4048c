// The onboarding CLI run as a child process (as an operator runs it) against an in-process
// sandbox, configured only through SETTLE_* environment variables.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notEnabledWarnings } from '../../src/cli/commands/accounts.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import type { Account, Consent } from '../../src/bank/index.js';
import { runSettle, type CliResult } from '../support/cli.js';

let sandbox: RunningSandbox;
let cwd: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  cwd = await mkdtemp(join(tmpdir(), 'settle-bank-cli-'));
});
afterAll(async () => {
  await sandbox.close();
  await rm(cwd, { recursive: true, force: true });
});

function settle(args: string[]): Promise<CliResult> {
  return runSettle(args, {
    cwd,
    env: {
      SETTLE_LOG_LEVEL: 'warn',
      SETTLE_BANK_URL: sandbox.urls.baseUrl,
      SETTLE_AUTH_URL: sandbox.urls.authUrl,
      SETTLE_TENANT_ID: SEED.tenant,
      SETTLE_CLIENT_ID: SEED.clientId,
      SETTLE_CLIENT_SECRET: SEED.clientSecret,
      SETTLE_SUBSCRIPTION_ID: SEED.subscriptionId,
    },
  });
}

// Each test starts several settle processes (a second or more each on a busy machine).
describe('settle banks', { timeout: 120_000 }, () => {
  it('lists banks as a table and filters by country', async () => {
    const r = await settle(['banks', 'list', '--country', 'no']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^BANK ID\s+NAME\s+COUNTRY/);
    expect(r.stdout).toContain('testbank');
    expect(r.stdout).toContain('nordbank');
    expect(r.stdout).not.toContain('svenskbank');
  });

  it('shows a bank with its property requirements as JSON', async () => {
    const r = await settle(['banks', 'show', 'nordbank', '--json']);
    expect(r.code).toBe(0);
    const bank = JSON.parse(r.stdout) as { bankId: string; propertyRequirements: { key: string; required: boolean }[] };
    expect(bank.bankId).toBe('nordbank');
    expect(bank.propertyRequirements).toContainEqual(
      expect.objectContaining({ key: 'accountNumbers', required: true }),
    );
  });

  it('refuses a bankId in the wrong case with the exact id as advice', async () => {
    const r = await settle(['banks', 'show', 'TestBank']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^settle: ERR_BANK_ID_UNKNOWN: .*"testbank"/);
  });
});

// Each test starts several settle processes (a second or more each on a busy machine).
describe('settle consents', { timeout: 120_000 }, () => {
  it('creates a consent, then refuses a second one for the same company and bank', async () => {
    const created = await settle([
      'consents',
      'create',
      '--bank',
      'testbank',
      '--org',
      '912345678',
      '--name',
      'Fjord AS',
      '--accounts',
      '15031234562',
      '--json',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const consent = JSON.parse(created.stdout) as { consentId: string; status: string };
    expect(consent.status).toBe('Created');

    const again = await settle(['consents', 'create', '--bank', 'testbank', '--org', '912345678']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`ERR_CONSENT_EXISTS`);
    expect(again.stderr).toContain(consent.consentId);

    const refreshed = await settle(['consents', 'refresh', consent.consentId]);
    expect(refreshed.code).toBe(0);
    expect(refreshed.stdout).toMatch(/https?:\/\/\S+/);
    expect(refreshed.stdout).toContain('expires within 7 days');
    expect(refreshed.stdout).toContain('ONCE');
    expect(refreshed.stdout).toContain('signing authority');

    const listed = await settle(['consents', 'list']);
    expect(listed.stdout).toMatch(new RegExp(`${consent.consentId}\\s+Created\\s+testbank\\s+912345678`));

    const deleted = await settle(['consents', 'delete', consent.consentId]);
    expect(deleted.code).toBe(0);
    const unknown = await settle(['consents', 'show', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^settle: ERR_BANK_ID_NOT_FOUND: the bank does not know that id/);
    const deletedAgain = await settle(['consents', 'delete', consent.consentId]);
    expect(deletedAgain.code).toBe(0);
    expect(deletedAgain.stdout).toBe(`consent ${consent.consentId} is already revoked; nothing to delete\n`);
    const shown = await settle(['consents', 'show', consent.consentId, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      consentId: consent.consentId,
      status: 'Revoked',
      organisationNumber: '912345678',
    });
  });

  it('names, per bank, the accounts not enabled yet after create and refresh, in the words accounts list uses', async () => {
    const created = await settle(['consents', 'create', '--bank', 'testbank', '--org', '967123450']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(
      'no accounts of 967123450 at testbank yet: the bank provisions them once the consent is Authorized',
    );

    const refreshed = await settle(['consents', 'refresh', '--bank', 'nordbank', '--org', SEED.resourceGroupName]);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const line = `account ${SEED.pendingAccountId} (${SEED.pendingIban}) at nordbank is disabled although consent ${SEED.nordbankConsentId} is Authorized: it cannot be used for statements or payments until the bank enables it`;
    expect(refreshed.stdout).toContain(
      `1 of 2 account(s) of ${SEED.resourceGroupName} at nordbank not enabled yet:\n  ${line}`,
    );
    expect(refreshed.stdout).not.toContain(SEED.nordbankIban);
    const listed = await settle(['accounts', 'list', '--org', SEED.resourceGroupName, '--bank', 'nordbank']);
    expect(listed.stderr).toContain(`warning: ${line}`);

    // Once the bank enables it, onboarding at nordbank waits for nothing.
    await fetch(`${sandbox.urls.controlUrl}/accounts/${SEED.pendingAccountId}/enable`, { method: 'POST' });
    try {
      const again = await settle(['consents', 'refresh', SEED.nordbankConsentId]);
      expect(again.stdout).toContain(`all 2 account(s) of ${SEED.resourceGroupName} at nordbank are enabled`);
    } finally {
      await fetch(`${sandbox.urls.controlUrl}/accounts/${SEED.pendingAccountId}/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'disabled' }),
      });
    }
  });

  it('tells an operator to wait for a consent in Started, never to request a new (invoiced) consent link', async () => {
    const created = await settle(['consents', 'create', '--bank', 'testbank', '--org', '945678901', '--json']);
    const { consentId } = JSON.parse(created.stdout) as { consentId: string };
    // The signer opened the link: the in-process sandbox's consent is put in that state directly.
    const consent = sandbox.sandbox.state.consents.get(consentId);
    if (!consent) throw new Error('consent missing');
    consent.status = 'Started';
    const shown = await settle(['consents', 'show', consentId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('wait and check again (do not request a new link)');
    expect(shown.stdout).not.toContain('consents refresh');
    const json = JSON.parse((await settle(['consents', 'show', consentId, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toEqual({
      consentId,
      status: 'Started',
      bankId: 'testbank',
      organisationNumber: '945678901',
      expiresAt: null,
      usable: false,
      next: expect.stringContaining('do not request a new link') as unknown,
    });
    const again = await settle(['consents', 'create', '--bank', 'testbank', '--org', '945678901']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('its signing is under way: wait until it is Authorized');
    expect(again.stderr).not.toContain('consents refresh');
  });

  it('refuses a bankId not exactly as listed, and a bank whose required properties are missing', async () => {
    const wrongCase = await settle(['consents', 'create', '--bank', 'NordBank', '--org', '923456789']);
    expect(wrongCase.code).toBe(2);
    expect(wrongCase.stderr).toMatch(/ERR_BANK_ID_UNKNOWN: .*"nordbank"/);
    const missing = await settle(['consents', 'create', '--bank', 'nordbank', '--org', '923456789']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/ERR_CONSENT_PROPERTIES_MISSING: .*accountNumbers/);
    const iban = await settle([
      'consents',
      'create',
      '--bank',
      'testbank',
      '--org',
      '934567890',
      '--accounts',
      'NO72 1503 1234 562',
    ]);
    expect(iban.code).toBe(2);
    expect(iban.stderr).toMatch(
      /^settle: ERR_CONSENT_ACCOUNT_NOT_BBAN: .*not an IBAN: "NO72 1503 1234 562" — give 15031234562$/m,
    );
    const listed = await settle(['consents', 'list', '--json']);
    expect(listed.stdout).not.toContain('934567890');
  });
});

// Each test starts several settle processes (a second or more each on a busy machine).
describe('settle accounts', { timeout: 120_000 }, () => {
  it('lists the accounts of a company with their status', async () => {
    const r = await settle(['accounts', 'list', '--org', SEED.resourceGroupName]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`${SEED.operatingAccountId}\\s+${SEED.operatingIban}\\s+NOK\\s+enabled`));
    // The seeded company's second bank has an account the bank has not enabled yet: said, once.
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`account ${SEED.pendingAccountId} (${SEED.pendingIban}) at nordbank is disabled`),
    ]);
    const nordbank = await settle([
      'accounts',
      'list',
      '--org',
      SEED.resourceGroupName,
      '--bank',
      'nordbank',
      '--json',
    ]);
    expect((JSON.parse(nordbank.stdout) as { id: string; bankId: string }[]).map((a) => [a.id, a.bankId])).toEqual([
      [SEED.nordbankAccountId, 'nordbank'],
      [SEED.pendingAccountId, 'nordbank'],
    ]);
    const json = await settle(['accounts', 'show', SEED.approvalAccountId, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      id: SEED.approvalAccountId,
      status: 'enabled',
      parameters: { preApproval: true },
    });
  });

  it('warns on stderr about an account that is not enabled although the consent is Authorized', async () => {
    // The control API cannot disable an account, so the in-process sandbox's state is set directly.
    const account = sandbox.sandbox.state.accounts.get(SEED.approvalAccountId);
    if (!account) throw new Error('seed account missing');
    account.status = 'disabled';
    try {
      const r = await settle(['accounts', 'list', '--org', SEED.resourceGroupName, '--json']);
      expect(r.code).toBe(0);
      const rows = JSON.parse(r.stdout) as { id: string; status: string }[];
      expect(rows.find((a) => a.id === SEED.approvalAccountId)?.status).toBe('disabled');
      // The documented shape (docs/cli-json.md): no raw bank answer, balances as decimal strings.
      const operating = rows.find((a) => a.id === SEED.operatingAccountId) as unknown as Record<string, unknown>;
      expect(Object.keys(operating).sort()).toEqual([
        'balances',
        'bankId',
        'bban',
        'bic',
        'currency',
        'iban',
        'id',
        'name',
        'organisationNumber',
        'other',
        'ownerName',
        'status',
      ]);
      expect(operating).toMatchObject({ iban: SEED.operatingIban, organisationNumber: SEED.resourceGroupName });
      for (const b of operating.balances as { amount: unknown; type: unknown }[])
        expect(b.amount).toMatch(/^-?\d+(\.\d+)?$/);
      expect(r.stderr).toContain(
        `warning: account ${SEED.approvalAccountId} (${SEED.approvalIban}) at testbank is disabled although consent ${SEED.consentId} is Authorized`,
      );
      expect(r.stderr).not.toContain(SEED.operatingAccountId);
    } finally {
      account.status = 'enabled';
    }
  });

  it('picks the right consent for the warning: Authorized, same bank, same company', () => {
    const account = (id: string, status: string): Account => ({
      id,
      status,
      bankId: 'testbank',
      balances: [],
      raw: {},
    });
    const consent: Consent = {
      consentId: 'c1',
      status: 'Authorized',
      bankId: 'testbank',
      resourceId: '/subscriptions/s/resource-groups/999/providers/aritma.banking/consents/c1',
      raw: {},
    };
    const warnings = notEnabledWarnings(
      [
        { account: account('a1', 'enabled'), organisationNumber: '999' },
        { account: account('a2', 'disabled'), organisationNumber: '999' },
        { account: account('a3', 'disabled'), organisationNumber: '888' },
      ],
      [consent],
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('a2 at testbank is disabled although consent c1 is Authorized');
  });
});
