// Units of work (src/store/unit-claims.ts): a unit is done by one holder at a time, the holder's
// heartbeat keeps its claim while it works however long that takes, and the work of a holder
// that was SIGKILLed is taken over as soon as its short claim lapses.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { createLogger, type Logger } from '../../src/log/logger.js';
import { LeaseRepository, openDatabase, UnitClaims, unitName, type Database } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

const holderScript = fileURLToPath(new URL('../support/unit-holder.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const TTL = 1500;
const unit = { job: 'submit', company: 'acme' };

function startHolder(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, holderScript, file, String(TTL)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('holding')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
}

function claims(db: Database, holder: string): UnitClaims {
  return new UnitClaims({ leases: new LeaseRepository(db, systemClock), holder, ttlMs: TTL });
}

describe('units of work', () => {
  it('are done by one holder at a time; the other names the holder and skips', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      const a = claims(db, 'a');
      const b = claims(db, 'b');
      const inner = await a.run(unit, () => b.run(unit, () => Promise.resolve('b ran')));
      expect(inner).toMatchObject({ ran: true, result: { ran: false, claimed: { holder: 'a', unit } } });
      expect(b.allClaimedElsewhere).toBe(true);
      expect(a.allClaimedElsewhere).toBe(false);
      // Released at the end: b takes it now.
      expect(await b.run(unit, () => Promise.resolve('b ran'))).toEqual({ ran: true, result: 'b ran' });
      await db.close();
    });
  });

  it('record the successes of the units done within a collecting unit with it, in one write', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      const writes: string[][] = [];
      const a = new UnitClaims({
        leases: new LeaseRepository(db, systemClock),
        holder: 'a',
        ttlMs: TTL,
        onDone: (units) => Promise.resolve(void writes.push(units.map(unitName))),
      });
      const chain = async (company: string, fail: boolean) => {
        await a.run({ job: 'pickup', company }, () => Promise.resolve());
        await a.run({ job: 'fetch', company }, async () => {
          await a.run({ job: 'fetch', company, account: 'x' }, () => Promise.resolve());
        });
        // A step that failed is not a success.
        await a.run({ job: 'submit', company }, () => Promise.reject(new Error('step failed'))).catch(() => {});
        if (fail) throw new Error('chain failed');
      };
      // Two chains at once, as the nightly run's companiesAtOnce: each collects its own.
      await Promise.all([
        a.run({ job: 'nightly', company: 'acme' }, () => chain('acme', false), { collectDone: true }).catch(() => {}),
        a.run({ job: 'nightly', company: 'beta' }, () => chain('beta', true), { collectDone: true }).catch(() => {}),
      ]);
      expect(writes.sort()).toEqual([
        ['unit:pickup:acme', 'unit:fetch:acme:x', 'unit:fetch:acme', 'unit:nightly:acme'],
        // A chain that failed: what was done within it is recorded, the chain itself not.
        ['unit:pickup:beta', 'unit:fetch:beta:x', 'unit:fetch:beta'],
      ]);
      // Everything released.
      expect(await db.knex('leases').select('name')).toEqual([]);
      await db.close();
    });
  });

  it('claimed together are taken in one statement and released together; a held one is left to its holder', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      const statements: string[] = [];
      db.knex.on('query', (q: { sql: string }) => void statements.push(q.sql));
      const a = claims(db, 'a');
      const steps = ['pickup', 'submit', 'status'].map((job) => ({ job, company: 'acme' }));
      const leased = () => db.knex('leases').select('name', 'holder').orderBy('name');
      const inside = await a.together(steps, async () => {
        const before = statements.length;
        // Each unit is already this run's: running it claims and releases nothing more.
        for (const step of steps)
          expect(await a.run(step, () => Promise.resolve(step.job))).toMatchObject({ ran: true });
        expect(statements.slice(before).filter((s) => /leases/.test(s))).toEqual([]);
        return leased();
      });
      expect(inside).toEqual(
        steps.map((u) => ({ name: unitName(u), holder: 'a' })).sort((x, y) => x.name.localeCompare(y.name)),
      );
      expect(statements.filter((s) => /^insert into `leases`/.test(s))).toHaveLength(1);
      expect(statements.filter((s) => /^delete from `leases`/.test(s))).toHaveLength(1);
      expect(await leased()).toEqual([]);

      // Another holder has one of them: none is taken together; the others are claimed one by
      // one as they run, the held one is skipped and named.
      const b = claims(db, 'b');
      const ran = await b.run(steps[1]!, () =>
        a.together(steps, async () => Promise.all(steps.map((step) => a.run(step, () => Promise.resolve(step.job))))),
      );
      expect(ran).toMatchObject({
        ran: true,
        result: [{ ran: true }, { ran: false, claimed: { holder: 'b', unit: steps[1] } }, { ran: true }],
      });
      expect(await leased()).toEqual([]);
      await db.close();
    });
  });

  it('lost while held together is told: the run aborts and says which', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      let lines = '';
      const stream = new PassThrough();
      stream.on('data', (d: Buffer) => (lines += d.toString()));
      const a = new UnitClaims({
        leases: new LeaseRepository(db, systemClock),
        holder: 'a',
        ttlMs: 90,
        logger: createLogger({ format: 'json', stream }),
      });
      const steps = ['fetch', 'export'].map((job) => ({ job, company: 'acme' }));
      await a.together(steps, async () => {
        // Another process took one over (as after a lapse): the next heartbeat finds it gone.
        await db
          .knex('leases')
          .where({ name: unitName(steps[1]!) })
          .update({ holder: 'b' });
        for (const start = Date.now(); !a.lost.aborted && Date.now() - start < 5000;) await sleep(20);
      });
      expect(a.lost.aborted).toBe(true);
      expect(lines).toContain('unit:export:acme');
      expect(lines).not.toContain('unit:fetch:acme"');
      a.close();
      await db.close();
    });
  });

  it('stay claimed by a live holder longer than the claim lasts, and are taken over within the claim time after SIGKILL', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.sqlite');
      const child = await startHolder(file);
      const db = await openDatabase({ url: `sqlite:${file}` });
      try {
        // Alive: its heartbeat keeps the claim past several claim times.
        await sleep(2.5 * TTL);
        const waiting = claims(db, 'next-run');
        expect(await waiting.run(unit, () => Promise.resolve('taken'))).toMatchObject({
          ran: false,
          claimed: { holder: `child:${child.pid}` },
        });
        const until = waiting.claimedElsewhere[0]?.until?.getTime() ?? 0;
        expect(until).toBeGreaterThan(Date.now());
        expect(until).toBeLessThanOrEqual(Date.now() + TTL);

        child.kill('SIGKILL');
        const killedAt = Date.now();
        let taken = false;
        while (!taken && Date.now() - killedAt < 3 * TTL) {
          taken = (await claims(db, 'next-run').run(unit, () => Promise.resolve(true))).ran;
          if (!taken) await sleep(100);
        }
        expect(taken).toBe(true);
        expect(Date.now() - killedAt).toBeLessThanOrEqual(TTL + 500);
      } finally {
        child.kill('SIGKILL');
        await db.close();
      }
    });
  }, 30_000);
});

/**
 * Leases whose renewal, once started, waits until the lease was released: the heartbeat's
 * renewal then meets the release the holder's own finish made.
 */
class RenewalAfterRelease extends LeaseRepository {
  private releasedNow!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.releasedNow = resolve));
  private renewingNow!: () => void;
  /** Resolves when the first renewal has started. */
  readonly renewing = new Promise<void>((resolve) => (this.renewingNow = resolve));
  /** The results of the renewals that ran after the release. */
  readonly lateRenewals: Promise<boolean>[] = [];

  override renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    this.renewingNow();
    const late = this.released.then(() => super.renew(name, holder, ttlMs));
    this.lateRenewals.push(late);
    return late;
  }

  override renewAll(names: readonly string[], holder: string, ttlMs: number): Promise<string[]> {
    this.renewingNow();
    const late = this.released.then(() => super.renewAll(names, holder, ttlMs));
    this.lateRenewals.push(late.then((lost) => lost.length === 0));
    return late;
  }

  override async release(name: string, holder: string): Promise<boolean> {
    const released = await super.release(name, holder);
    this.releasedNow();
    return released;
  }
}

describe('a renewal that finds the claim released by its own finish', () => {
  async function withLeases(fn: (leases: RenewalAfterRelease, logger: Logger, logged: () => string) => Promise<void>) {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      try {
        await db.migrate();
        let lines = '';
        const stream = new PassThrough();
        stream.on('data', (d: Buffer) => (lines += d.toString()));
        const logger = createLogger({ format: 'json', stream, level: 'debug' });
        await fn(new RenewalAfterRelease(db, systemClock), logger, () => lines);
      } finally {
        await db.close();
      }
    });
  }

  it('is not a lost unit: no warning, and the run is not told it lost a claim', async () => {
    await withLeases(async (leases, logger, logged) => {
      const claims = new UnitClaims({ leases, holder: 'a', ttlMs: 60, logger });
      const result = await claims.run(unit, async () => {
        await leases.renewing; // the heartbeat is renewing while the work ends
        return 'done';
      });
      expect(result).toEqual({ ran: true, result: 'done' });
      expect(await Promise.all(leases.lateRenewals)).toContain(false);
      await sleep(20);
      expect(claims.lost.aborted).toBe(false);
      expect(logged()).not.toMatch(/lost/);
      claims.close();
    });
  });

  it('is not a lost lease for a job run under a named lease', async () => {
    await withLeases(async (leases, logger, logged) => {
      let signal: AbortSignal | undefined;
      const run = await leases.runWithLease(
        'nightly',
        'a',
        60,
        async (lost) => {
          signal = lost;
          await leases.renewing;
          return 'done';
        },
        logger,
      );
      expect(run).toEqual({ ran: true, result: 'done' });
      expect(await Promise.all(leases.lateRenewals)).toContain(false);
      await sleep(20);
      expect(signal?.aborted).toBe(false);
      expect(logged()).not.toMatch(/lost/);
    });
  });
});
