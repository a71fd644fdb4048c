// bankIds are checked exactly (issue #50 Must 8): online, each configured bankId against the
// bank's list, with "did you mean" that includes case; offline, `config check` says they went
// unchecked instead of implying they are fine.
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { checkOnline } from '../../src/main/online-check.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
});
afterAll(async () => {
  await sandbox.close();
});

const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };

/** The demo configuration with its second bank written `bankId` (the seed lists `nordbank`). */
async function withBankId<T>(bankId: string, fn: (file: string, dir: string) => Promise<T>): Promise<T> {
  return withTempDir(async (dir) => {
    const file = await writeDemoConfig(dir, sandbox);
    await writeFile(file, (await readFile(file, 'utf8')).replace('{ bankId: nordbank }', `{ bankId: ${bankId} }`));
    return fn(file, dir);
  });
}

describe('bankIds in config check', { timeout: 120_000 }, () => {
  it('online: a bankId in the wrong case is refused with the listed id it meant', async () => {
    await withBankId('Nordbank', async (file, dir) => {
      const checks = await checkOnline(loadConfig({ file, cwd: dir, env }), silentLogger());
      expect(checks).toContainEqual({
        area: 'bank',
        subject: 'acme bankId Nordbank',
        ok: false,
        message: expect.stringContaining('the bank does not list "Nordbank"; did you mean "nordbank"?') as string,
      });
      expect(checks).toContainEqual(
        expect.objectContaining({ subject: `acme bankId ${SEED.bankId}`, ok: true, message: 'listed by the bank' }),
      );
    });
  });

  it('online: a bankId nothing like a listed one is refused without a guess; the exact one passes', async () => {
    await withBankId('zzqq', async (file, dir) => {
      const checks = await checkOnline(loadConfig({ file, cwd: dir, env }), silentLogger());
      const check = checks.find((c) => c.subject === 'acme bankId zzqq');
      expect(check).toMatchObject({ ok: false, message: expect.stringContaining('settle banks list') as string });
      expect(check!.message).not.toContain('did you mean');
    });
    await withBankId('nordbank', async (file, dir) => {
      const checks = await checkOnline(loadConfig({ file, cwd: dir, env }), silentLogger());
      expect(checks.filter((c) => c.subject.includes('bankId')).every((c) => c.ok)).toBe(true);
    });
  });

  it('offline: config check says the bankIds went unchecked', async () => {
    await withBankId('Nordbank', async (file, dir) => {
      const text = await runSettle(['--config', file, 'config', 'check'], { cwd: dir, env });
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(
        `bankIds not checked against the bank (${SEED.bankId}, Nordbank): run \`settle config check --online\``,
      );
      const json = await runSettle(['--config', file, 'config', 'check', '--json'], { cwd: dir, env });
      expect(JSON.parse(json.stdout)).toMatchObject({ valid: true, uncheckedBankIds: [SEED.bankId, 'Nordbank'] });
    });
  });
});
