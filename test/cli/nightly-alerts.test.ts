// `settle run nightly` under a systemd timer is the only settle process: it must alert like
// `settle serve` does — a finding that needs a person goes out once, not on every run.
import { appendFile, copyFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle run nightly', () => {
  it('alerts once per finding through the configured webhook', async () => {
    const received: { subject?: string; type?: string; finding?: { kind?: string; key?: string } }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body) as (typeof received)[number]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    // The CLI runs on the real clock: so does the sandbox here.
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        await appendFile(
          file,
          `alerts:\n  webhook:\n    url: http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts\n`,
        );
        await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
        await copyFile('samples/erp/acme-corrections.csv', join(dir, 'acme', 'inbox', 'acme-corrections.csv'));
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const first = await runSettle(['--config', file, 'run', 'nightly'], { cwd: dir, env });
        expect(first.stdout).toMatch(/! pickup +1 file\(s\): 0 accepted, 0 partly accepted, 1 rejected/);
        expect(first.code).toBe(1);
        const rejected = received.filter((m) => m.type === 'finding' && JSON.stringify(m).includes('file-rejected'));
        expect(rejected).toHaveLength(1);
        expect(JSON.stringify(rejected[0])).toContain('acme-corrections.csv');

        const before = received.length;
        const second = await runSettle(['--config', file, 'run', 'nightly'], { cwd: dir, env });
        expect(second.stdout).toMatch(
          /✓ fetch +4 account\(s\): 3 fetched \(testbank 2, nordbank 1\), 1 not \(1 not enabled at the bank yet\)/,
        );
        expect(
          received.slice(before).filter((m) => m.type === 'finding' && JSON.stringify(m).includes('file-rejected')),
        ).toEqual([]);
      });
    } finally {
      await sandbox.close();
      hook.close();
    }
  });
});
