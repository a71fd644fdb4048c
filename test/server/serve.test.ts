// startServe assembled from a real App (config, SQLite, local company folders): the default
// nightly job (pickup) turns a rejected file into one alert, the nightly summary goes out per
// run, /healthz shows the run, and stop() closes everything.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp } from '../../src/main/app.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import type { AlertMessage, Notifier } from '../../src/alerts/index.js';
import { JobRunRepository } from '../../src/store/job-runs.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { startHttpSink, type HttpSink } from '../alerts/http-sink.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';

describe('startServe', () => {
  let dir: string;
  let hook: HttpSink;
  let running: RunningServe | undefined;
  const sent: AlertMessage[] = [];
  const recorder: Notifier = {
    channel: 'recorder',
    send: (m) => (sent.push(m), Promise.resolve()),
    close: () => Promise.resolve(),
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-serve-app-'));
    hook = await startHttpSink();
    sent.length = 0;
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await hook.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the nightly chain, alerts a rejected file once on every channel and mails the summary of every run', async () => {
    await mkdir(join(dir, 'acme/inbox'), { recursive: true });
    await writeFile(
      join(dir, 'settle.yaml'),
      [
        `dataDir: ${dir}/data`,
        'alerts:',
        '  webhook:',
        `    url: ${hook.url}/alerts`,
        '    authorization: { env: ALERT_TOKEN }',
        'companies:',
        '  - id: acme',
        '    name: ACME AS',
        '    organisationNumber: "999999999"',
        `    root: ${dir}/acme`,
        '    intake:',
        '      stableFor: 1s',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'acme/inbox/bad.csv'),
      `${HEADER}\nNO9386011117947,ACME AS,2099-01-06,E2,10.00,NOK,NO0612000000008,Leverandor AS\n`,
    );
    const config = loadConfig({
      file: join(dir, 'settle.yaml'),
      cwd: dir,
      env: { ALERT_TOKEN: 'Bearer alert-token-9', SETTLE_WEBHOOK_AUTHORIZATION: 'Bearer x' },
    });
    const app = await createApp(config, silentLogger());
    running = await startServe(app, { port: 0, host: '127.0.0.1', scheduler: false, notifiers: [recorder] });

    // No bank is reachable here: the bank steps fail (and need a person), pickup still does its work.
    expect(await running.scheduler.trigger('nightly')).toMatchObject({ ran: true, outcome: 'findings' });
    expect(await running.scheduler.trigger('nightly')).toMatchObject({ ran: true, outcome: 'findings' });

    const findings = sent.filter((m) => m.type === 'finding');
    expect(findings.map((m) => m.subject)).toEqual(['[settle] acme: payment file bad.csv rejected']);
    expect(sent.filter((m) => m.type === 'run-summary').map((m) => m.subject.replace(/:.*/, ''))).toEqual([
      '[settle] nightly findings',
      '[settle] nightly findings',
    ]);
    expect(findings[0]?.payload).toMatchObject({
      kind: 'file-rejected',
      company: 'acme',
      data: { report: 'error/bad.csv.errors.txt' },
    });
    expect(hook.requests.map((r) => (JSON.parse(r.body) as { subject: string }).subject)).toEqual(
      sent.map((m) => m.subject),
    );
    expect(hook.requests[0]?.headers.authorization).toBe('Bearer alert-token-9');

    const health = (await (await fetch(`${running.url}/healthz`)).json()) as {
      jobs: Record<string, { lastRun?: { outcome: string } }>;
    };
    expect(health.jobs.nightly?.lastRun?.outcome).toBe('findings');
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    expect(metrics).toMatch(/^settle_job_runs_total\{job="nightly",outcome="findings"\} 2$/m);
    expect(metrics).toMatch(/^settle_bank_errors_total\{code="ERR_BANK_NO_CREDENTIALS"\} \d+$/m);
    expect(metrics).toMatch(/^settle_payment_files\{state="rejected"\} 1$/m);
    expect(metrics).toMatch(/^settle_alerts_total\{channel="webhook",type="finding",outcome="sent"\} 1$/m);

    const stopping = running;
    running = undefined;
    await stopping.stop();
    await expect(fetch(`${stopping.url}/healthz`)).rejects.toThrow();
    await expect(app.db.knex.raw('select 1')).rejects.toThrow();
  });

  it('runs the statements job against the bank: fetches every account and its transactions', async () => {
    const sandbox = await startSandbox();
    try {
      await mkdir(join(dir, 'sandbox-as'), { recursive: true }); // settle never creates a company root
      await writeFile(
        join(dir, 'settle.yaml'),
        [
          `dataDir: ${dir}/data`,
          'bank:',
          `  baseUrl: ${sandbox.urls.baseUrl}`,
          `  authUrl: ${sandbox.urls.authUrl}`,
          '  clientSecret: { env: BANK_SECRET }',
          'companies:',
          '  - id: sandbox-as',
          '    name: Sandbox AS',
          '    organisationNumber: "999999999"',
          `    root: ${dir}/sandbox-as`,
          '',
        ].join('\n'),
      );
      const config = loadConfig({ file: join(dir, 'settle.yaml'), cwd: dir, env: { BANK_SECRET: 'sandbox-secret' } });
      // settle's clock follows the bank's: the sandbox lives in January 2026.
      const app = await createApp(config, silentLogger(), new ManualClock(sandbox.sandbox.clock.now()));
      running = await startServe(app, { port: 0, host: '127.0.0.1', scheduler: false, notifiers: [recorder] });
      const result = await running.scheduler.trigger('statements');
      expect(result).toMatchObject({ ran: true });
      const [run] = await new JobRunRepository(app.db, app.clock).recent('statements', 1);
      expect(run?.summary, JSON.stringify(run)).toHaveProperty('counts');
      const counts = (run?.summary as { counts: Record<string, number> }).counts;
      // testbank's two accounts and nordbank's enabled one; nordbank's other one waits for the bank.
      expect(counts['accounts fetched'], JSON.stringify(run)).toBe(3);
      expect(counts['accounts not enabled yet']).toBe(1);
      expect(counts['accounts failed']).toBe(0);
      expect(counts['transactions new']).toBeGreaterThan(0);
      // Statement summaries are only logged; no finding on a clean first fetch means no alert.
      expect(sent.filter((m) => m.type === 'run-summary')).toEqual([]);
    } finally {
      await running?.stop();
      running = undefined;
      await sandbox.close();
    }
  });

  it('refuses to start with ERR_SERVE_LISTEN when the port is taken', async () => {
    const config = loadConfig({ cwd: dir, env: { SETTLE_DATA_DIR: join(dir, 'data') } });
    const app = await createApp(config, silentLogger());
    const port = Number(new URL(hook.url).port);
    const error: unknown = await startServe(app, { host: '127.0.0.1', port, scheduler: false }).catch(
      (e: unknown) => e,
    );
    await app.close();
    expect(error).toMatchObject({ code: 'ERR_SERVE_LISTEN', exitCode: 3 });
    expect((error as Error).message).toContain(`127.0.0.1:${port} (EADDRINUSE)`);
  });
});
