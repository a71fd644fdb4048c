// `settle consents expiring` and `settle consents renew` through the real CLI process, against
// an in-process sandbox bank and an SMTP sink: the consents near expiry with their signers, the
// renewal of an active consent by a new consent link (never a second consent: rule 1), a new consent
// when the old one is gone, and each link mailed to the company's approvers only.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { readableMail, startSmtpSink, type SmtpSink } from '../alerts/smtp-sink.js';
import { runSettle, type CliResult } from '../support/cli.js';
import { sandboxConfigHead } from '../support/sandbox-config.js';

const DAY = 86_400_000;

describe('settle consents expiring and renew', { timeout: 180_000 }, () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let smtp: SmtpSink;
  let otherConsentId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-consent-renewal-'));
    sandbox = await startSandbox({ port: 0 });
    smtp = await startSmtpSink();
    otherConsentId = [...sandbox.sandbox.state.consents.values()].find(
      (c) => c.resourceGroupName === SEED.otherResourceGroupName,
    )!.consentId;
    await writeFile(
      join(dir, 'settle.yaml'),
      [
        ...sandboxConfigHead(dir, sandbox),
        'alerts:',
        `  email: { host: 127.0.0.1, port: ${smtp.port}, from: settle@example.com, to: [ops@example.com] }`,
        'companies:',
        '  - id: sandbox-as',
        '    name: Sandbox AS',
        `    organisationNumber: "${SEED.resourceGroupName}"`,
        '    bankId: testbank',
        `    root: ${dir}/sandbox-as`,
        '    people:',
        '      - { name: Kari Signer, email: kari@example.com, roles: [approver] }',
        '      - { name: Ola Viewer, email: ola@example.com, roles: [viewer] }',
        '  - id: other-as',
        '    name: Other AS',
        `    organisationNumber: "${SEED.otherResourceGroupName}"`,
        '    bankId: testbank',
        `    root: ${dir}/other-as`,
        '',
      ].join('\n'),
    );
    // What the nightly read of the bank's consents would have stored: one expires in 5 days, one in 40.
    const db = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
    await db.migrate();
    const store = createStore(db, systemClock);
    const now = Date.now();
    for (const [company, consentId, days] of [
      ['sandbox-as', SEED.consentId, 5],
      ['other-as', otherConsentId, 40],
    ] as const)
      await store.consents.record({
        company,
        bankId: 'testbank',
        consentId,
        status: 'Authorized',
        expiresAt: new Date(now + days * DAY),
        statusAt: new Date(now - DAY),
        source: 'bank',
      });
    await db.close();
  });
  afterAll(async () => {
    await sandbox.close();
    await smtp.close();
    await rm(dir, { recursive: true, force: true });
  });

  function settle(args: string[]): Promise<CliResult> {
    return runSettle(['--config', join(dir, 'settle.yaml'), ...args], {
      cwd: dir,
      env: { BANK_SECRET: SEED.clientSecret, SETTLE_LOG_LEVEL: 'warn' },
    });
  }

  const consentsOf = (rg: string) =>
    [...sandbox.sandbox.state.consents.values()].filter((c) => c.resourceGroupName === rg);

  it('lists the consents near expiry with the people who must sign', async () => {
    const soon = await settle(['consents', 'expiring', '--json']);
    expect(soon.stderr).toBe('');
    expect(soon.code).toBe(0);
    const rows = JSON.parse(soon.stdout) as {
      company: string;
      consentId: string;
      daysLeft: number;
      signers: unknown;
    }[];
    expect(rows).toEqual([
      expect.objectContaining({
        company: 'sandbox-as',
        bankId: 'testbank',
        consentId: SEED.consentId,
        daysLeft: 4,
        signers: [{ name: 'Kari Signer', email: 'kari@example.com' }],
      }),
    ]);
    const later = await settle(['consents', 'expiring', '--within', '60d']);
    expect(later.code).toBe(0);
    expect(later.stdout).toMatch(/^sandbox-as\s+testbank\s+\S+\s+.*kari@example\.com\s*$/m);
    expect(later.stdout).toMatch(/^other-as\s+testbank\s+.*\(none: add people with the approver role\)\s*$/m);
    const bad = await settle(['consents', 'expiring', '--within', 'soon']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--within takes a duration');
  });

  it('renews the expiring ones in a batch: a new consent link for the active consent, mailed to its signers', async () => {
    const before = consentsOf(SEED.resourceGroupName).length;
    const r = await settle(['consents', 'renew', '--expiring', '--within', '14d', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const results = JSON.parse(r.stdout) as { company: string; outcome: string; consentId: string; sentTo: string[] }[];
    expect(results).toEqual([
      expect.objectContaining({
        company: 'sandbox-as',
        consentId: SEED.consentId,
        outcome: 'link-sent',
        sentTo: ['kari@example.com'],
      }),
    ]);
    // Rule 1: the active consent was renewed, not doubled.
    expect(consentsOf(SEED.resourceGroupName)).toHaveLength(before);
    const mails = smtp.messages.filter((m) => m.to.includes('kari@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['kari@example.com']);
    expect(readableMail(mails[0]!.data)).toMatch(
      /Sign with your electronic ID here: http:\/\/127\.0\.0\.1:\d+\/\S*sca\S*/,
    );
    expect(smtp.messages.some((m) => m.to.includes('ola@example.com'))).toBe(false);
  });

  it('creates a new consent for a company whose consent is gone, and records it', async () => {
    expect((await settle(['consents', 'delete', SEED.consentId])).code).toBe(0);
    const r = await settle(['consents', 'renew', '--company', 'sandbox-as', '--json']);
    expect(r.stderr).toBe('');
    const [result] = JSON.parse(r.stdout) as { outcome: string; consentId: string; sentTo: string[] }[];
    expect(result).toMatchObject({ outcome: 'created', sentTo: ['kari@example.com'] });
    expect(result!.consentId).not.toBe(SEED.consentId);
    // The company's nordbank consent is another bank's (one active consent per company and bank).
    const active = consentsOf(SEED.resourceGroupName).filter(
      (c) => c.status !== 'Revoked' && c.consentId !== SEED.nordbankConsentId,
    );
    expect(active.map((c) => c.consentId)).toEqual([result!.consentId]);
    const db = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
    try {
      const [row] = await createStore(db, systemClock).consents.list('sandbox-as');
      expect(row).toMatchObject({ consentId: result!.consentId, bankId: 'testbank' });
    } finally {
      await db.close();
    }
    // A second renewal finds the new consent active and sends a link for it; still one consent.
    const again = await settle(['consents', 'renew', '--company', 'sandbox-as', '--bank', 'testbank', '--json']);
    const [second] = JSON.parse(again.stdout) as { outcome: string; consentId: string }[];
    expect(second!.consentId).toBe(result!.consentId);
    expect(
      consentsOf(SEED.resourceGroupName).filter(
        (c) => c.status !== 'Revoked' && c.consentId !== SEED.nordbankConsentId,
      ),
    ).toHaveLength(1);
  });

  it('asks for --company or --expiring', async () => {
    const r = await settle(['consents', 'renew']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('give either --company ID');
    const unknown = await settle(['consents', 'renew', '--company', 'nobody']);
    expect(unknown.stderr).toContain('no company "nobody"');
  });
});
