import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_MAIN } from '../support/cli-paths.js';
import { paymentStatusEvent, sleep } from './helpers.js';

const AUTH = 'Bearer serve-cli-secret-51c2';

describe('settle serve', () => {
  it('listens, answers health, metrics and webhooks, and stops cleanly on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-serve-'));
    const child = spawn(process.execPath, [CLI_MAIN, 'serve', '--port', '0', '--grace', '5'], {
      cwd: dir,
      env: {
        ...process.env,
        SETTLE_DATA_DIR: join(dir, 'data'),
        SETTLE_LOG_FORMAT: 'json',
        SETTLE_WEBHOOK_AUTHORIZATION: AUTH,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      let url: string | undefined;
      for (let i = 0; i < 300 && !url; i++) {
        url =
          /"message":"settle serve started"[^\n]*"url":"(http:\/\/[^"]+)"/.exec(stdout)?.[1] ??
          /"url":"(http:\/\/[^"]+)"[^\n]*"message":"settle serve started"/.exec(stdout)?.[1];
        if (!url) await sleep(50);
      }
      expect(url, stderr).toBeDefined();
      // Not a terminal: stdout holds JSON log lines only (journald).
      expect(stdout.split('\n').filter((l) => l !== '' && !l.startsWith('{'))).toEqual([]);

      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: { ok: true }, jobs: { nightly: {} } });

      const event = paymentStatusEvent('ACSC');
      const hook = await fetch(`${url}/webhooks/banking`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/cloudevents+json; charset=utf-8' },
        body: JSON.stringify(event.toJSON()),
      });
      expect(hook.status).toBe(200);
      expect(await hook.json()).toEqual({ accepted: 1, duplicates: 0, rejected: 0 });
      const refused = await fetch(`${url}/webhooks/banking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(refused.status).toBe(401);

      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^settle_webhook_events_total\{outcome="accepted"\} 1$/m);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const logs = stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { message: string });
      expect(logs.map((l) => l.message)).toEqual(
        expect.arrayContaining(['job scheduled', 'settle serve started', 'signal received', 'settle serve stopped']),
      );
      expect(stdout + stderr).not.toContain('serve-cli-secret-51c2');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
