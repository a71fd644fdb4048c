import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionRepository, createStore } from '../../src/store/index.js';
import { payment } from '../store/fixtures.js';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { buildServer, createHealthCheck, createMetrics } from '../../src/server/index.js';
import { JobRunRepository } from '../../src/store/job-runs.js';
import { JobSuccessRepository } from '../../src/store/job-successes.js';
import { openTempDb, type TempDb } from './helpers.js';

describe('/healthz and /metrics', () => {
  let t: TempDb;
  const clock = new ManualClock('2026-01-07T01:00:00Z');
  beforeEach(async () => {
    t = await openTempDb();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  function server() {
    const jobRuns = new JobRunRepository(t.db, clock);
    const successes = new JobSuccessRepository(t.db, clock);
    const metrics = createMetrics({
      counts: new AttentionRepository(t.db),
      jobs: {
        finishedRuns: () => jobRuns.finishedByOutcome(),
        successes: (jobs) => successes.list(jobs),
        companies: () => ['acme', 'beta'],
        watched: ['nightly', 'export'],
      },
      logger: silentLogger(),
    });
    const app = buildServer({
      db: t.db,
      logger: silentLogger(),
      clock,
      metrics,
      health: createHealthCheck({ db: t.db, jobRuns, jobNames: ['nightly', 'status'], clock, timeoutMs: 1000 }),
      webhook: { maxBodyBytes: 4096 },
    });
    return { app, jobRuns, successes, metrics };
  }

  it('answers 200 with the database and the last run of each job', async () => {
    const { app, jobRuns } = server();
    const older = await jobRuns.start('nightly', 'run-a', 'host-1');
    await jobRuns.finish(older.id, 'ok');
    clock.advance(60_000);
    const newer = await jobRuns.start('nightly', 'run-b', 'host-2');
    clock.advance(5_000);
    await jobRuns.finish(newer.id, 'findings', { counts: { rejected: 1 } });
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      status: 'ok',
      time: '2026-01-07T01:01:05.000Z',
      database: { ok: true, description: expect.stringContaining('settle.sqlite') as unknown },
      jobs: {
        nightly: {
          lastRun: {
            runId: 'run-b',
            startedAt: '2026-01-07T01:01:00.000Z',
            finishedAt: '2026-01-07T01:01:05.000Z',
            outcome: 'findings',
            holder: 'host-2',
          },
        },
        status: {},
      },
      lastSuccess: {},
      deadlines: [],
      deadlineMissed: false,
    });
  });

  it('answers 503 when the database does not answer', async () => {
    const { app } = server();
    await t.db.close();
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'unavailable', database: { ok: false } });
  });

  it('exposes process metrics, job and bank counters, and payments and files by state from the database', async () => {
    const { app, metrics } = server();
    // Files as pickup records them: the counters /metrics reads are kept by the store's writes.
    const files = createStore(t.db, clock).files;
    const file = (name: string) => ({
      company: 'acme',
      fileName: `${name}.csv`,
      sha256: name.repeat(64),
      format: 'csv',
      sizeBytes: 10,
      receivedAt: clock.now(),
    });
    await files.recordAcceptedFile(file('a'), [payment(1)]);
    for (const name of ['b', 'c'])
      await files.recordRejectedFile(file(name), 'line 2: bad', { lineCount: 1, rejectedCount: 1 });
    metrics.jobDuration.observe({ job: 'nightly' }, 2.5);
    metrics.bankErrors.inc({ code: 'ERR_BANK_UNAVAILABLE' });
    metrics.tokenRefreshes.inc();
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/^settle_process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^settle_job_duration_seconds_bucket\{le="5",job="nightly"\} 1$/m);
    expect(text).toMatch(/^settle_bank_errors_total\{code="ERR_BANK_UNAVAILABLE"\} 1$/m);
    expect(text).toMatch(/^settle_token_refreshes_total 1$/m);
    expect(text).toMatch(/^settle_payment_files\{state="accepted"\} 1$/m);
    expect(text).toMatch(/^settle_payment_files\{state="rejected"\} 2$/m);
    expect(text).toMatch(/^# TYPE settle_payments gauge$/m);
    expect(text).toMatch(/^settle_payments\{state="accepted"\} 1$/m);
  });

  it('reads the job series from the database at scrape time, whichever process recorded the runs', async () => {
    const { app, jobRuns, successes } = server();
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    // Nothing ran yet: no runs, no last success per job, and every company's night never completed.
    const before = await scrape();
    expect(before).not.toMatch(/^settle_job_runs_total\{/m);
    expect(before).toMatch(/^settle_company_last_success_timestamp_seconds\{job="nightly",company="beta"\} 0$/m);
    // Runs another process (the CLI under a systemd timer) recorded in the shared database.
    const ok = await jobRuns.start('nightly', 'run-a', 'cli host:1');
    clock.advance(2_000);
    await jobRuns.finish(ok.id, 'ok');
    await successes.record('nightly', 'acme', 'run-a');
    const okAt = clock.now().getTime() / 1000;
    clock.advance(60_000);
    const failed = await jobRuns.start('nightly', 'run-b', 'cli host:2');
    await jobRuns.finish(failed.id, 'failed', { error: { code: 'ERR_BANK_UNAVAILABLE' } });
    await jobRuns.start('nightly', 'run-c', 'cli host:3'); // still running: not counted
    const text = await scrape();
    await app.close();
    expect(text).toMatch(/^settle_job_runs_total\{job="nightly",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^settle_job_runs_total\{job="nightly",outcome="failed"\} 1$/m);
    // The last success is the ok run's finish, not the failed run's a minute later.
    expect(text).toMatch(new RegExp(`^settle_job_last_success_timestamp_seconds\\{job="nightly"\\} ${okAt}$`, 'm'));
    expect(text).toMatch(
      new RegExp(`^settle_company_last_success_timestamp_seconds\\{job="nightly",company="acme"\\} ${okAt}$`, 'm'),
    );
    // beta never completed its night: 0, so `time() - … > 26*3600` fires for it.
    expect(text).toMatch(/^settle_company_last_success_timestamp_seconds\{job="nightly",company="beta"\} 0$/m);
    expect(text).toMatch(/^settle_company_last_success_timestamp_seconds\{job="export",company="acme"\} 0$/m);
  });

  it('keeps separate registries per server, so counters do not leak between instances', async () => {
    const a = createMetrics({ processMetrics: false });
    const b = createMetrics({ processMetrics: false });
    a.tokenRefreshes.inc(3);
    expect((await b.scrape()).body).toMatch(/^settle_token_refreshes_total 0$/m);
    expect((await a.scrape()).body).toMatch(/^settle_token_refreshes_total 3$/m);
  });
});
