// `settle config check --online` as an operator runs it before the first night: every folder,
// the database and the bank are reached, and each thing that is wrong is one located line
// (exit 3); a clean check exits 0. The SFTP company is reached with its pinned host key.
import { mkdir, rm, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { startSshdForTests } from '../support/sshd.js';
import { withTempDir } from '../support/tmp.js';

const FOLDERS = ['inbox', 'archive', 'error', 'status', 'statements', 'reports', 'approvals', 'receivables'];

interface Check {
  area: string;
  subject: string;
  ok: boolean;
  message: string;
}

let sandbox: RunningSandbox;
const { server, reason } = await startSshdForTests();
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
});
afterAll(async () => {
  await sandbox.close();
  await server?.stop();
});

const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };

describe('settle config check --online', { timeout: 180_000 }, () => {
  it('says OK when folders, database and bank are right, and names each thing that is wrong', async () => {
    await withTempDir(async (dir) => {
      const file = await writeDemoConfig(dir, sandbox);
      for (const f of FOLDERS) await mkdir(join(dir, 'acme', f), { recursive: true });
      await runSettle(['--config', file, 'db', 'migrate'], { cwd: dir, env });
      // The seeded company's second bank has an account not enabled yet: a real finding, so
      // the bank enables it first (an account not enabled fails the online check).
      const pending = sandbox.sandbox.state.accounts.get(SEED.pendingAccountId)!;
      pending.status = 'enabled';

      const good = await runSettle(['--config', file, 'config', 'check', '--online'], { cwd: dir, env });
      expect(good.stderr).toBe('');
      expect(good.code).toBe(0);
      expect(good.stdout).toContain('✓ folders: acme folders.inbox (inbox in ');
      expect(good.stdout).toMatch(/✓ database: database .*: schema current/);
      expect(good.stdout).toContain(`✓ bank: acme consent ${SEED.consentId}: Authorized`);
      expect(good.stdout).toContain(`✓ bank: acme account ${SEED.operatingIban}: enabled`);
      expect(good.stdout).toMatch(/folders, database and bank OK\n$/);

      await rm(join(dir, 'acme', 'reports'), { recursive: true });
      const consent = sandbox.sandbox.state.consents.get(SEED.consentId)!;
      consent.status = 'Expired';
      try {
        const bad = await runSettle(['--config', file, 'config', 'check', '--online'], { cwd: dir, env });
        expect(bad.code).toBe(3);
        const wrong = bad.stdout.split('\n').filter((l) => l.startsWith('✗'));
        expect(wrong).toEqual([
          expect.stringMatching(
            /^✗ folders: acme folders\.reports \(reports in .*\): the folder does not exist: create it, or correct companies\[acme\]\.folders\.reports$/,
          ),
          `✗ bank: acme consent ${SEED.consentId}: Expired, not Authorized: no statements or payments until it is (settle consents show ${SEED.consentId})`,
        ]);
        expect(bad.stdout).toContain('2 problem(s) found online');

        const json = await runSettle(['--config', file, 'config', 'check', '--online', '--json'], { cwd: dir, env });
        expect(json.code).toBe(3);
        const doc = JSON.parse(json.stdout) as { valid: boolean; online: { ok: boolean; checks: Check[] } };
        expect(doc.valid).toBe(true);
        expect(doc.online.ok).toBe(false);
        expect(doc.online.checks.filter((c) => !c.ok).map((c) => c.area)).toEqual(['folders', 'bank']);
        expect(Object.keys(doc.online.checks[0]!).sort()).toEqual(['area', 'message', 'ok', 'subject']);
      } finally {
        consent.status = 'Authorized';
      }
    });
  });

  it('prints the problems of an invalid configuration as JSON with exit 2', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), 'timeZone: Mars/Olympus\n');
      const r = await runSettle(['--config', join(dir, 'settle.yaml'), 'config', 'check', '--json'], { cwd: dir });
      expect(r.code).toBe(2);
      const doc = JSON.parse(r.stdout) as { valid: boolean; problems: { path: string; message: string }[] };
      expect(doc.valid).toBe(false);
      expect(doc.problems.map((p) => p.path)).toEqual(['timeZone']);
    });
  });

  it.runIf(server || process.env.CI)(
    'reaches SFTP folders with the pinned host key and names a wrong pin',
    async () => {
      if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
      await withTempDir(async (dir) => {
        const sub = `online-${Date.now()}`;
        for (const f of FOLDERS) await mkdir(join(server.filesRoot, sub, f), { recursive: true });
        await writeFile(join(dir, 'client.key'), server.privateKey, { mode: 0o600 });
        const config = async (pin: string) => {
          const file = await writeDemoConfig(dir, sandbox);
          const yaml = (await import('node:fs/promises')).readFile(file, 'utf8');
          const text = (await yaml)
            .replace(/root: .*\n/, `transport: erp\n    root: ${JSON.stringify(join(server.filesRoot, sub))}\n`)
            .replace(
              / {6}approvals: approvals.*\n {6}receivables: receivables.*\n/,
              FOLDERS.map((f) => `      ${f}: ${f}\n`).join(''),
            );
          await writeFile(file, text);
          await appendFile(
            file,
            `transports:\n  erp:\n    type: sftp\n    host: ${server.host}\n    port: ${server.port}\n    username: ${server.username}\n    privateKey: { file: ${JSON.stringify(join(dir, 'client.key'))} }\n    hostKeySha256: "${pin}"\n`,
          );
          return file;
        };
        const pinned = await config(server.hostKeySha256);
        await runSettle(['--config', pinned, 'db', 'migrate'], { cwd: dir, env });
        const good = await runSettle(['--config', pinned, 'config', 'check', '--online'], { cwd: dir, env });
        expect(good.stdout).toMatch(/✓ folders: acme folders\.inbox \(inbox in erp:/);
        expect(good.code, good.stdout).toBe(0);
        const wrongPin = `SHA256:${'A'.repeat(43)}`;
        const bad = await runSettle(['--config', await config(wrongPin), 'config', 'check', '--online'], {
          cwd: dir,
          env,
        });
        expect(bad.code).toBe(3);
        expect(bad.stdout).toMatch(/✗ folders: acme folders\.inbox \(inbox in erp:.*\): ERR_SFTP_HOST_KEY/);
        expect(bad.stdout + bad.stderr).not.toContain(server.privateKey.slice(40, 80));
      });
    },
  );
});
