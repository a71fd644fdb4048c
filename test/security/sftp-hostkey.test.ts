// Promise: settle talks SFTP only to the server whose host key is pinned. No pin: refused before
// connecting, with the command that prints the fingerprint to pin. A different key (a changed
// or intercepted server): refused before any credential is sent, naming both fingerprints. The
// right key: works. Proved against a real OpenSSH sshd, through the SFTP store and through the
// CLI an operator uses (`settle sftp fingerprint`, then `settle run pickup` with the pin).
import { randomBytes } from 'node:crypto';
import { isSettleError } from '../../src/domain/errors.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sftpCommand } from '../../src/cli/commands/sftp-fingerprint.js';
import { SftpFileStore, fetchHostKeyFingerprint, type SftpFileStoreOptions } from '../../src/transport/index.js';
import { runSettle } from '../support/cli.js';
import { failure, otherFingerprint, startSshdForTests } from '../support/sshd.js';
import { withTempDir } from '../support/tmp.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

describe.runIf(server || process.env.CI)('security: SFTP host keys are pinned (real sshd)', () => {
  const sshd = () => {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    return server;
  };
  const base = (extra: Partial<SftpFileStoreOptions> = {}): SftpFileStore =>
    new SftpFileStore({
      host: sshd().host,
      port: sshd().port,
      username: sshd().username,
      privateKey: sshd().privateKey,
      hostKeySha256: sshd().hostKeySha256,
      root: sshd().filesRoot,
      timeoutMs: 10_000,
      ...extra,
    });

  describe('the SFTP store', () => {
    it('refuses a server whose host key differs from the pin, naming both fingerprints', async () => {
      const pinned = otherFingerprint();
      const store = base({ hostKeySha256: pinned });
      const error = await failure(store.list(''));
      expect(error.code).toBe('ERR_SFTP_HOST_KEY_MISMATCH');
      expect(error.message).toContain(pinned);
      expect(error.message).toContain(sshd().hostKeySha256);
      await store.close();
    });

    it('accepts the pin without the "SHA256:" prefix and with base64 padding', async () => {
      const store = base({ hostKeySha256: sshd().hostKeySha256.replace('SHA256:', '') + '=' });
      expect(await store.list('')).toEqual(expect.any(Array));
      await store.close();
    });

    it('refuses to work without a pinned host key and says how to get one', () => {
      const attempt = () => base({ hostKeySha256: undefined });
      expect(attempt).toThrowError(/settle sftp fingerprint/);
      try {
        attempt();
      } catch (error) {
        expect(isSettleError(error, 'ERR_SFTP_HOST_KEY_UNPINNED')).toBe(true);
      }
      expect(() => base({ hostKeySha256: 'aa:bb:cc' })).toThrowError(/not a SHA256 fingerprint/);
    });

    it('connects unpinned only when allowUnpinned is set explicitly', async () => {
      const store = base({ hostKeySha256: undefined, allowUnpinned: true });
      expect(await store.list('')).toEqual(expect.any(Array));
      await store.close();
    });

    it('fetches the same fingerprint ssh-keygen prints, for first contact', async () => {
      expect(await fetchHostKeyFingerprint({ host: sshd().host, port: sshd().port })).toBe(sshd().hostKeySha256);
    });

    it('`settle sftp fingerprint HOST:PORT` prints the pin, as text and as JSON', async () => {
      let printed = '';
      const io = { out: (text: string) => void (printed += text) };
      await sftpCommand(io).parseAsync(['fingerprint', `${sshd().host}:${sshd().port}`], { from: 'user' });
      expect(printed).toContain(`${sshd().hostKeySha256} (ssh-ed25519) ${sshd().host}:${sshd().port}`);
      printed = '';
      await sftpCommand(io).parseAsync(['fingerprint', '--json', `${sshd().host}:${sshd().port}`], { from: 'user' });
      expect(JSON.parse(printed)).toEqual({
        host: sshd().host,
        port: sshd().port,
        fingerprint: sshd().hostKeySha256,
        keyType: 'ssh-ed25519',
      });
    });
  });

  describe('the CLI, as an operator runs it', () => {
    async function pickupWith(dir: string, pin: string | undefined): Promise<Awaited<ReturnType<typeof runSettle>>> {
      const s = sshd();
      const sub = `hostkey-${randomBytes(4).toString('hex')}`;
      await writeFile(join(dir, 'client.key'), s.privateKey, { mode: 0o600 });
      await writeFile(
        join(dir, 'settle.yaml'),
        [
          `dataDir: ${join(dir, 'data')}`,
          'transports:',
          '  erp:',
          '    type: sftp',
          `    host: ${s.host}`,
          `    port: ${s.port}`,
          `    username: ${s.username}`,
          `    privateKey: { file: ${join(dir, 'client.key')} }`,
          ...(pin === undefined ? [] : [`    hostKeySha256: "${pin}"`]),
          '    timeout: 10s',
          'companies:',
          '  - id: acme',
          '    name: ACME AS',
          '    organisationNumber: "999999999"',
          '    transport: erp',
          `    root: ${s.filesRoot}`,
          '    folders:',
          `      inbox: ${sub}/inbox`,
          `      archive: ${sub}/archive`,
          `      error: ${sub}/error`,
          '    intake:',
          '      stableFor: 1s',
          '',
        ].join('\n'),
      );
      return runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
    }

    it('no pin: the configuration is refused before any connection, naming the key and the exact command that prints the fingerprint', async () => {
      await withTempDir(async (dir) => {
        const result = await pickupWith(dir, undefined);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: /);
        expect(result.stderr).toContain(
          `transports.erp.hostKeySha256: the SFTP host key must be pinned; get it with \`settle sftp fingerprint ${sshd().host}:${sshd().port}\``,
        );
      });
    });

    it('a changed host key: refused with ERR_SFTP_HOST_KEY_MISMATCH naming the pinned and the presented fingerprint', async () => {
      await withTempDir(async (dir) => {
        const pinned = otherFingerprint();
        const result = await pickupWith(dir, pinned);
        expect(result.code).toBe(3);
        expect(result.stderr).toMatch(/^settle: ERR_SFTP_HOST_KEY_MISMATCH: /);
        expect(result.stderr).toContain(pinned);
        expect(result.stderr).toContain(sshd().hostKeySha256);
      });
    });

    it('first contact: the pin `settle sftp fingerprint --json` prints makes the pickup work', async () => {
      await withTempDir(async (dir) => {
        const printed = await runSettle(['sftp', 'fingerprint', '--json', `${sshd().host}:${sshd().port}`], {
          cwd: dir,
        });
        expect(printed.code).toBe(0);
        const { fingerprint } = JSON.parse(printed.stdout) as { fingerprint: string };
        expect(fingerprint).toBe(sshd().hostKeySha256);
        const result = await pickupWith(dir, fingerprint);
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
        expect(result.stdout).toContain('no files to pick up');
      });
    });
  });
});
