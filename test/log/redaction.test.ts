import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { SettleError } from '../../src/domain/errors.js';
import { createLogger, redactText, runLogger } from '../../src/log/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const SECRET = 'Zq9-known-client-secret-7781';

function capture(): { stream: PassThrough; lines: () => string[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return { stream, lines: () => text.split('\n').filter(Boolean) };
}

describe('secrets never reach a log line or an error message', () => {
  it('masks a configured secret wherever it appears in a log line', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret'), SECRET);
      const config = loadConfig({ cwd: dir, env: { SETTLE_CLIENT_SECRET_FILE: join(dir, 'secret') } });
      const { stream, lines } = capture();
      const log = runLogger(createLogger({ stream, format: 'json', level: 'debug' }), 'submit', 'run-1');
      log.info(`token request failed for secret ${SECRET}`);
      log.warn('request', {
        headers: { Authorization: `Bearer ${SECRET}` },
        body: `grant_type=client_credentials&client_secret=${SECRET}`,
      });
      log.error('nested', { deep: { list: [{ note: `xx${SECRET}yy` }] }, clientSecret: config.bank.clientSecret });
      log.debug('error object', { error: new SettleError('ERR_BANK_UNAUTHORIZED', `refused ${SECRET}`) });
      log.info('config', { bank: config.bank });
      await new Promise((r) => setImmediate(r));
      const out = lines();
      expect(out).toHaveLength(5);
      for (const line of out) {
        expect(line).not.toContain(SECRET);
        const parsed = JSON.parse(line) as { job: string; runId: string };
        expect(parsed.job).toBe('submit');
        expect(parsed.runId).toBe('run-1');
      }
      expect(out.join('\n')).toContain('[REDACTED]');
    });
  });

  it('masks secret-shaped text even when the value was never registered', () => {
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
    const text = redactText(
      `key ${pem} and Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig and password=abc123xyz`,
    );
    expect(text).not.toContain('b3BlbnNzaC1rZXktdjEAAAAA');
    expect(text).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(text).not.toContain('abc123xyz');
  });

  it('keeps ordinary text readable', () => {
    expect(redactText('payment E2E-42 of 100.00 NOK rejected: AC01')).toBe(
      'payment E2E-42 of 100.00 NOK rejected: AC01',
    );
  });

  it('does not print a secret in the CLI error for a broken configuration', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret'), SECRET);
      await writeFile(join(dir, 's.yaml'), `bank:\n  clientSecret: ${SECRET}\n  timeout: never\n`);
      const result = await runSettle(['--config', join(dir, 's.yaml'), 'config', 'check'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('ERR_CONFIG_INVALID');
      expect(result.stderr).toContain('bank.clientSecret');
      expect(result.stderr + result.stdout).not.toContain(SECRET);
    });
  });

  it('masks secrets in `settle config show`', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret'), SECRET);
      const result = await runSettle(['config', 'show'], {
        cwd: dir,
        env: { SETTLE_CLIENT_SECRET_FILE: join(dir, 'secret') },
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('"clientSecret": "[REDACTED]"');
      expect(result.stdout).not.toContain(SECRET);
    });
  });
});
