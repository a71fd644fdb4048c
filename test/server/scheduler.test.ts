import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, systemClock, type Clock } from '../../src/domain/clock.js';
import { SettleError } from '../../src/domain/errors.js';
import { silentLogger } from '../../src/log/index.js';
import type { RunSummary } from '../../src/alerts/index.js';
import { createMetrics, Scheduler, type ScheduledJob, type TriggerResult } from '../../src/server/index.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { JobRunRepository } from '../../src/store/job-runs.js';
import { LeaseRepository } from '../../src/store/leases.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { openTempDb, sleep, type TempDb } from './helpers.js';

/** A job that counts how many runs of it are active at once, across every scheduler sharing the tracker. */
function trackedJob(name: string, tracker: { active: number; max: number; runs: number }, ms: number): ScheduledJob {
  return {
    name,
    async run() {
      tracker.active++;
      tracker.max = Math.max(tracker.max, tracker.active);
      tracker.runs++;
      try {
        await sleep(ms);
      } finally {
        tracker.active--;
      }
      return { counts: { done: 1 } };
    },
  };
}

function scheduler(
  db: Database,
  job: ScheduledJob,
  opts: { clock?: Clock; holder: string; cron?: string; ttlMs?: number; summaries?: RunSummary[] },
) {
  const clock = opts.clock ?? systemClock;
  return new Scheduler({
    entries: [{ job, cron: opts.cron ?? '0 2 * * *' }],
    timeZone: 'Europe/Oslo',
    leases: new LeaseRepository(db, clock),
    jobRuns: new JobRunRepository(db, clock),
    leaseTtlMs: opts.ttlMs ?? 5000,
    logger: silentLogger(),
    clock,
    metrics: createMetrics({ processMetrics: false }),
    holder: opts.holder,
    onRunFinished: (s) => {
      opts.summaries?.push(s);
      return Promise.resolve();
    },
  });
}

function exclusionSuite(
  label: string,
  open: () => Promise<{ a: Database; b: Database; cleanup: () => Promise<void> }>,
) {
  describe(`two schedulers on one ${label} database`, () => {
    let a: Database;
    let b: Database;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ a, b, cleanup } = await open());
    });
    afterAll(async () => {
      await cleanup();
    });

    it('never run the same job at the same time: one runs, the other is skipped because of the lease', async () => {
      const tracker = { active: 0, max: 0, runs: 0 };
      const one = scheduler(a, trackedJob('nightly', tracker, 150), { holder: 'host-a' });
      const two = scheduler(b, trackedJob('nightly', tracker, 150), { holder: 'host-b' });
      const results: TriggerResult[] = [];
      for (let round = 0; round < 3; round++)
        results.push(...(await Promise.all([one.trigger('nightly'), two.trigger('nightly')])));
      expect(tracker.max).toBe(1);
      expect(tracker.runs).toBe(3);
      expect(results.filter((r) => r.ran)).toHaveLength(3);
      const skipped = results.filter((r) => !r.ran);
      expect(skipped).toHaveLength(3);
      for (const s of skipped)
        expect(s).toMatchObject({
          ran: false,
          reason: 'lease-held',
          claimedBy: expect.stringMatching(/^host-[ab]$/) as unknown,
        });
    });

    it('run the job again once the holder released its lease', async () => {
      const tracker = { active: 0, max: 0, runs: 0 };
      const one = scheduler(a, trackedJob('status', tracker, 10), { holder: 'host-a' });
      const two = scheduler(b, trackedJob('status', tracker, 10), { holder: 'host-b' });
      expect((await one.trigger('status')).ran).toBe(true);
      expect((await two.trigger('status')).ran).toBe(true);
      expect(tracker.runs).toBe(2);
    });
  });
}

exclusionSuite('SQLite', async () => {
  const t = await openTempDb();
  const second = await openDatabase({ url: `sqlite:${t.file}` });
  return {
    a: t.db,
    b: second,
    async cleanup() {
      await second.close();
      await t.cleanup();
    },
  };
});

const mariadb = await mariaDbForTests();
describe.runIf(mariadb)('MariaDB', () => {
  exclusionSuite('MariaDB', async () => {
    const throwaway: ThrowawayDatabase = await createThrowawayDatabase();
    const a = await openDatabase({ url: throwaway.url });
    await a.migrate();
    const b = await openDatabase({ url: throwaway.url });
    return {
      a,
      b,
      async cleanup() {
        await a.close();
        await b.close();
        await throwaway.drop();
      },
    };
  });
});

describe('Scheduler', () => {
  let t: TempDb;
  afterEach(async () => {
    await t.cleanup();
  });

  it('skips a tick that finds the job still running in this process', async () => {
    t = await openTempDb();
    const tracker = { active: 0, max: 0, runs: 0 };
    const s = scheduler(t.db, trackedJob('nightly', tracker, 100), { holder: 'h' });
    const [first, second] = await Promise.all([s.trigger('nightly'), s.trigger('nightly')]);
    expect(first).toMatchObject({ ran: true, outcome: 'ok' });
    expect(second).toEqual({ ran: false, reason: 'running-here' });
    expect(tracker.runs).toBe(1);
  });

  it("takes over a crashed holder's lease once it has expired", async () => {
    t = await openTempDb();
    const clock = new ManualClock('2026-01-07T01:00:00Z');
    const tracker = { active: 0, max: 0, runs: 0 };
    // The crashed instance took the lease and never renewed or released it.
    await new LeaseRepository(t.db, clock).acquire('job:nightly', 'crashed-host', 60_000);
    const s = scheduler(t.db, trackedJob('nightly', tracker, 1), { holder: 'survivor', clock, ttlMs: 60_000 });
    expect(await s.trigger('nightly')).toEqual({ ran: false, reason: 'lease-held', claimedBy: 'crashed-host' });
    clock.advance(59_000);
    expect((await s.trigger('nightly')).ran).toBe(false);
    clock.advance(1_000);
    expect(await s.trigger('nightly')).toMatchObject({ ran: true });
    expect(tracker.runs).toBe(1);
    expect(await new LeaseRepository(t.db, clock).current('job:nightly')).toBeUndefined();
  });

  it('records every run in job_runs and turns a failure into a failed run with its code and an alert', async () => {
    t = await openTempDb();
    const summaries: RunSummary[] = [];
    const failing: ScheduledJob = {
      name: 'statements',
      run: () => Promise.reject(new SettleError('ERR_BANK_UNAVAILABLE', 'the bank answered 503 five times')),
    };
    const s = scheduler(t.db, failing, { holder: 'h', summaries });
    expect(await s.trigger('statements')).toMatchObject({ ran: true, outcome: 'failed' });
    const [run] = await new JobRunRepository(t.db, systemClock).recent('statements', 1);
    expect(run).toMatchObject({
      job: 'statements',
      outcome: 'failed',
      holder: 'h',
      summary: { error: { code: 'ERR_BANK_UNAVAILABLE' } },
    });
    expect(run?.finishedAt).toBeInstanceOf(Date);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.findings[0]).toMatchObject({
      kind: 'job-failed',
      key: expect.stringMatching(/^job-failed:statements:ERR_BANK_UNAVAILABLE:\d{4}-\d{2}-\d{2}$/) as unknown,
    });
  });

  it('runs jobs on their cron schedule, and two instances on cron never overlap', async () => {
    t = await openTempDb();
    const second = await openDatabase({ url: `sqlite:${t.file}` });
    const tracker = { active: 0, max: 0, runs: 0 };
    const one = scheduler(t.db, trackedJob('status', tracker, 600), { holder: 'a', cron: '* * * * * *' });
    const two = scheduler(second, trackedJob('status', tracker, 600), { holder: 'b', cron: '* * * * * *' });
    one.start();
    two.start();
    await sleep(3200);
    await Promise.all([one.stop(5000), two.stop(5000)]);
    await second.close();
    expect(tracker.runs).toBeGreaterThanOrEqual(2);
    expect(tracker.max).toBe(1);
    const runs = await new JobRunRepository(t.db, systemClock).recent('status', 20);
    expect(runs).toHaveLength(tracker.runs);
    expect(runs.every((r) => r.outcome === 'ok')).toBe(true);
  }, 15_000);

  it('on stop waits for the running job, and past the grace period asks it to stop at a checkpoint', async () => {
    t = await openTempDb();
    let aborted = false;
    const patient: ScheduledJob = {
      name: 'nightly',
      run: (_runId, signal) =>
        new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          });
        }),
    };
    const s = scheduler(t.db, patient, { holder: 'h' });
    const running = s.trigger('nightly');
    await sleep(50);
    const stopped = await s.stop(100, 2000);
    expect(aborted).toBe(true);
    expect(stopped).toEqual({ unfinished: [] });
    expect(await running).toMatchObject({ ran: true, outcome: 'failed' });
    expect(await s.trigger('nightly')).toEqual({ ran: false, reason: 'stopping' });
  });

  it('refuses an invalid cron expression', async () => {
    t = await openTempDb();
    expect(() =>
      scheduler(t.db, trackedJob('x', { active: 0, max: 0, runs: 0 }, 1), { holder: 'h', cron: '61 * * * *' }),
    ).toThrow(/invalid cron expression/);
  });
});
