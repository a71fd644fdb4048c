// The dead-man alert through the real entry points: `settle health` (for a systemd timer) and
// `settle serve`'s /healthz. A deadline nothing met raises one error log line with a stable
// event, one alert per deadline on the channels, and exit 1; a completed nightly chain is
// shown per company and clears it.
import { appendFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle, startSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';
import { startWebhookSink } from '../support/webhook-sink.js';

interface Health {
  lastSuccess: { job: string; company: string; at: string }[];
  deadlines: { job: string; company: string; by: string; missed: boolean; lastSuccess: string | null }[];
  deadlineMissed: boolean;
}

describe('deadlines for the nightly chain and the statements', { timeout: 240_000 }, () => {
  it('settle health alerts a missed deadline once, and settle serve shows each job’s last success', async () => {
    const hook = await startWebhookSink();
    const received = hook.received;
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        // 00:00 has always passed today: a chain that never ran has missed it.
        await appendFile(
          file,
          `alerts:\n  nightlyBy: "00:00"\n  statementsBy: "00:00"\n  webhook:\n    url: ${hook.url}\n`,
        );
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const first = await runSettle(['--config', file, 'health', '--json'], { cwd: dir, env });
        expect(first.code).toBe(1);
        const missed = JSON.parse(first.stdout) as Health;
        expect(missed.deadlineMissed).toBe(true);
        expect(missed.deadlines).toEqual([
          expect.objectContaining({ job: 'nightly', company: 'acme', by: '00:00', missed: true, lastSuccess: null }),
          expect.objectContaining({ job: 'export', company: 'acme', by: '00:00', missed: true, lastSuccess: null }),
        ]);
        const logged = first.stderr
          .split('\n')
          .filter((l) => l.includes('"deadline-missed"'))
          .map((l) => JSON.parse(l) as { level: string; event: string; job: string });
        expect(logged.map((l) => [l.level, l.event, l.job])).toEqual([
          ['error', 'deadline-missed', 'nightly'],
          ['error', 'deadline-missed', 'export'],
        ]);
        const alerts = () => received.filter((m) => JSON.stringify(m).includes('deadline-missed:'));
        expect(alerts()).toHaveLength(2);
        // The same missed deadline is one alert, however often the timer asks.
        await runSettle(['--config', file, 'health'], { cwd: dir, env });
        expect(alerts()).toHaveLength(2);

        const nightly = await runSettle(['--config', file, 'run', 'nightly'], { cwd: dir, env });
        expect(nightly.code, nightly.stderr).not.toBe(3);
        const after = await runSettle(['--config', file, 'health'], { cwd: dir, env });
        expect(after.code).toBe(0);
        // The board's row of acme: its night's steps all done.
        expect(after.stdout).toMatch(/^acme\s+ACME AS\s+yes\s+-\s+9\/9 done\s/m);
        expect(after.stdout).toMatch(/^ok {2}nightly ACME AS \(acme\) by 00:00 Europe\/Oslo/m);

        const serve = startSettle(['--config', file, 'serve', '--port', '0', '--grace', '5'], { cwd: dir, env });
        try {
          const [, url] = await serve.waitFor(/"url":"(http:\/\/[^"]+)"/, 60_000);
          const health = (await (await fetch(`${url}/healthz`)).json()) as Health & {
            lastSuccess: Record<string, Record<string, string>>;
          };
          expect(Object.keys(health.lastSuccess)).toEqual(expect.arrayContaining(['nightly', 'export', 'pickup']));
          expect(health.lastSuccess.nightly?.acme).toMatch(/^\d{4}-\d\d-\d\dT/);
          expect(health.deadlineMissed).toBe(false);
          expect(health.deadlines.map((d) => [d.job, d.company, d.missed])).toEqual([
            ['nightly', 'acme', false],
            ['export', 'acme', false],
          ]);
          const metrics = await (await fetch(`${url}/metrics`)).text();
          expect(metrics).toMatch(/^settle_deadline_missed\{job="nightly",company="acme"\} 0$/m);
        } finally {
          await serve.stop();
        }
      });
    } finally {
      await sandbox.close();
      hook.close();
    }
  });
});
