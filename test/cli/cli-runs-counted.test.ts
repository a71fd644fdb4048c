// Every run counts: `settle run nightly` in its own process (as a systemd timer starts it) is
// recorded in job_runs, so a `settle serve` on the same database — which never ran the job —
// shows it on /metrics (read from the database at scrape time) and on the console's Today.
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withDemoServe } from '../support/demo-serve.js';
import { withTempDir } from '../support/tmp.js';

describe('runs started by the CLI', { timeout: 240_000 }, () => {
  it('settle run nightly shows on a running serve’s /metrics and Today', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox, { console: true });
        // No scheduler: this serve never runs a job itself.
        await withDemoServe(file, dir, async (serve, client, app) => {
          const scrape = async () => (await fetch(`${serve.url}/metrics`)).text();
          expect(await scrape()).not.toMatch(/^settle_job_runs_total\{job="nightly"/m);

          const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
          const night = await runSettle(['--config', file, 'run', 'nightly', '--json'], { cwd: dir, env });
          expect(night.code, night.stderr).not.toBe(3);
          const outcome = night.code === 0 ? 'ok' : 'findings';

          const metrics = await scrape();
          expect(metrics).toMatch(new RegExp(`^settle_job_runs_total\\{job="nightly",outcome="${outcome}"\\} 1$`, 'm'));
          expect(metrics).toMatch(/^settle_job_last_success_timestamp_seconds\{job="nightly"\} \d{10}/m);
          expect(metrics).toMatch(
            /^settle_company_last_success_timestamp_seconds\{job="nightly",company="acme"\} \d{10}/m,
          );

          const today = await (await client.request('/console/?company=acme')).text();
          expect(today).not.toContain('No job has run yet.');
          expect(today).toMatch(new RegExp(`<td>nightly</td>.*?<span class="[a-z]+">${outcome}</span>`, 's'));

          // The run's record names the CLI process that ran it.
          const [run] = await app.store.jobRuns.recent('nightly', 1);
          expect(run).toMatchObject({ job: 'nightly', outcome });
          expect(run?.holder).toMatch(/^cli /);
        });
      });
    } finally {
      await sandbox.close();
    }
  });
});
