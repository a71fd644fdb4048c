// `settle company init <id>` makes a configured company's folders, as an operator onboarding a
// company runs it: the root and every configured folder, again without harm, and a located
// error for a company the configuration does not have.
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { startSshdForTests } from '../support/sshd.js';
import { withTempDir } from '../support/tmp.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => {
  await server?.stop();
});

describe('settle company init', () => {
  it("creates the company's root and every configured folder, and runs again without harm", async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'settle.yaml');
      await writeFile(
        file,
        `dataDir: ./data
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    root: ./clients/acme
    folders: { inbox: in/payments, approvals: approvals }
  - id: beta
    name: Beta AS
    organisationNumber: "999999998"
    root: ./clients/beta
`,
      );
      const first = await runSettle(['--config', file, 'company', 'init', 'acme', '--json'], { cwd: dir });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const folders = ['in/payments', 'archive', 'error', 'status', 'statements', 'reports', 'approvals'];
      expect(JSON.parse(first.stdout)).toMatchObject({ company: 'acme', folders });
      for (const folder of folders) expect((await stat(join(dir, 'clients/acme', folder))).isDirectory()).toBe(true);
      // Only the company asked for.
      await expect(stat(join(dir, 'clients/beta'))).rejects.toThrow(/ENOENT/);

      await writeFile(join(dir, 'clients/acme/in/payments/pay.csv'), 'kept');
      const again = await runSettle(['--config', file, 'company', 'init', 'acme'], { cwd: dir });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('acme: folders ready in ');
      expect(again.stdout).toContain('  in/payments\n');
      expect((await stat(join(dir, 'clients/acme/in/payments/pay.csv'))).size).toBe(4);

      const unknown = await runSettle(['--config', file, 'company', 'init', 'gamma'], { cwd: dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^settle: ERR_COMPANY_UNKNOWN: no company with id gamma in the configuration/);
    });
  });

  it.skipIf(!server && !process.env.CI)(
    "creates them on the company's SFTP server through its pinned transport",
    async () => {
      if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
      await withTempDir(async (dir) => {
        await writeFile(join(dir, 'client.key'), server.privateKey, { mode: 0o600 });
        const root = `${server.filesRoot}/init-${Date.now()}`;
        const file = join(dir, 'settle.yaml');
        await writeFile(
          file,
          `dataDir: ./data
transports:
  erp:
    type: sftp
    host: ${server.host}
    port: ${server.port}
    username: ${server.username}
    privateKey: { file: ${JSON.stringify(join(dir, 'client.key'))} }
    hostKeySha256: "${server.hostKeySha256}"
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    transport: erp
    root: ${root}
    folders: { receivables: erp/open }
`,
        );
        const result = await runSettle(['--config', file, 'company', 'init', 'acme'], { cwd: dir });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toMatch(/^acme: folders ready in sftp:\/\//);
        // The sshd serves this machine's files: what it made is on disk under its root.
        for (const folder of ['inbox', 'archive', 'error', 'status', 'statements', 'reports', 'erp/open'])
          expect((await stat(join(root, folder))).isDirectory()).toBe(true);
      });
    },
  );
});
