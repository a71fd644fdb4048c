// Named leases for jobs ("nightly", "fetch-statements:acct-1", …): at most one holder at a
// time across all settle instances on the database. A lease has a time to live; a holder that
// crashes simply stops renewing, and the lease can be taken over once it has expired.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/logger.js';
import type { Database } from './database.js';
import { againOnDeadlock, isDeadlock } from './deadlock.js';
import { insertAll } from './insert-all.js';
import { chunks, IDS_PER_STATEMENT, instant, isUniqueViolation, toDate, toStr, type Row } from './rows.js';

export interface Lease {
  name: string;
  holder: string;
  acquiredAt: Date;
  expiresAt: Date;
}

export type LeasedRun<T> = { ran: true; result: T } | { ran: false; claimedBy?: string };

export class LeaseRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Takes the lease when it is free, expired, or already ours; undefined when someone else holds
   * it. `usuallyFree`: the caller's leases are deleted when released (units of work), so the row
   * is usually absent and the INSERT is tried first — one statement instead of a missed UPDATE
   * and an INSERT; leases left in place on purpose (the status job's "not before" marks) keep the
   * UPDATE first.
   */
  async acquire(
    name: string,
    holder: string,
    ttlMs: number,
    options: { usuallyFree?: boolean } = {},
  ): Promise<Lease | undefined> {
    const now = this.clock.now();
    const lease = { name, holder, acquiredAt: now, expiresAt: new Date(now.getTime() + ttlMs) };
    if (options.usuallyFree) {
      if (await this.create(lease)) return lease;
      return (await this.takeOver(lease)) ? lease : undefined;
    }
    if (await this.takeOver(lease)) return lease;
    return (await this.create(lease)) ? lease : undefined;
  }

  /**
   * Takes every lease of `names` in one INSERT, or none: the way to claim a set of units that are
   * usually free (a company's steps, its accounts) in one round trip instead of one each. False,
   * with nothing taken, when any of them has a row (held, or left by a killed holder): the caller
   * then claims them one by one with `acquire`, which tells held from lapsed.
   */
  async acquireAll(names: readonly string[], holder: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const acquired = instant(now);
    const expires = instant(new Date(now.getTime() + ttlMs));
    try {
      // insertAll runs it again when MariaDB picks it as a deadlock victim (deadlock.ts); one that
      // is picked every time is claimed unit by unit instead.
      await insertAll(
        this.db,
        'leases',
        // In key order, as every claimer inserts them: fewer ways for two inserts to wait on each other.
        [...names].sort().map((name) => ({ name, holder, acquired_at: acquired, expires_at: expires })),
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error) || isDeadlock(error)) return false;
      throw error;
    }
  }

  /** Takes over an expired lease (or refreshes our own) with one conditional update. */
  private async takeOver(lease: Lease): Promise<boolean> {
    const { name, holder, acquiredAt, expiresAt } = lease;
    const updated = await againOnDeadlock(() =>
      this.db
        .knex('leases')
        .where({ name })
        .andWhere((w) => void w.where({ holder }).orWhere('expires_at', '<=', instant(acquiredAt)))
        .update({ holder, acquired_at: instant(acquiredAt), expires_at: instant(expiresAt) }),
    );
    return updated > 0;
  }

  /** Creates the lease; the primary key lets exactly one of two racing creators win. */
  private async create(lease: Lease): Promise<boolean> {
    const { name, holder, acquiredAt, expiresAt } = lease;
    try {
      await againOnDeadlock(() =>
        this.db
          .knex('leases')
          .insert({ name, holder, acquired_at: instant(acquiredAt), expires_at: instant(expiresAt) }),
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Extends a lease we still hold; false when it was lost (expired and taken over). */
  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const expiresAt = instant(new Date(this.clock.now().getTime() + ttlMs));
    const updated = await againOnDeadlock(() =>
      this.db.knex('leases').where({ name, holder }).update({ expires_at: expiresAt }),
    );
    return updated > 0;
  }

  /**
   * Extends the leases of `names` we still hold, in one UPDATE per few hundred; the names no longer
   * ours (expired and taken over, or released meanwhile) are returned, found with one read.
   */
  async renewAll(names: readonly string[], holder: string, ttlMs: number): Promise<string[]> {
    const expiresAt = instant(new Date(this.clock.now().getTime() + ttlMs));
    let renewed = 0;
    for (const part of chunks(names))
      renewed += await againOnDeadlock(() =>
        this.db.knex('leases').where({ holder }).whereIn('name', part).update({ expires_at: expiresAt }),
      );
    if (renewed === names.length) return [];
    const held = new Set<string>();
    for (const part of chunks(names))
      for (const row of await this.db.knex<Row>('leases').select('name').where({ holder }).whereIn('name', part))
        held.add(toStr(row.name));
    return names.filter((name) => !held.has(name));
  }

  /** Gives up the leases of `names` we hold, in one DELETE per few hundred. */
  async releaseAll(names: readonly string[], holder: string): Promise<void> {
    for (const part of chunks(names))
      await againOnDeadlock(() => this.db.knex('leases').where({ holder }).whereIn('name', part).delete());
  }

  /** Gives the lease up; false when we no longer held it. */
  async release(name: string, holder: string): Promise<boolean> {
    return (await againOnDeadlock(() => this.db.knex('leases').where({ name, holder }).delete())) > 0;
  }

  /**
   * Runs `fn` while holding the lease, renewing it every ttl/3 (real time) and releasing it at
   * the end; `{ ran: false }` when someone else has claimed it. `fn` gets a signal that aborts when
   * the lease is lost, so long work can stop before a second holder starts the same thing.
   */
  async runWithLease<T>(
    name: string,
    holder: string,
    ttlMs: number,
    fn: (lost: AbortSignal) => Promise<T>,
    logger?: Logger,
  ): Promise<LeasedRun<T>> {
    if (!(await this.acquire(name, holder, ttlMs))) {
      const current = await this.current(name);
      return current ? { ran: false, claimedBy: current.holder } : { ran: false };
    }
    const lost = new AbortController();
    let finished = false;
    const timer = setInterval(
      () => {
        this.renew(name, holder, ttlMs).then(
          (held) => {
            // A renewal that meets the lease already released by our own finish lost nothing.
            if (!held && !finished && !lost.signal.aborted) {
              logger?.warn('lease lost', { lease: name, holder });
              lost.abort(new Error(`lease ${name} lost`));
            }
          },
          (error: unknown) => logger?.warn('lease renewal failed', { lease: name, error }),
        );
      },
      Math.max(10, Math.floor(ttlMs / 3)),
    );
    timer.unref();
    try {
      return { ran: true, result: await fn(lost.signal) };
    } finally {
      finished = true;
      clearInterval(timer);
      await this.release(name, holder);
    }
  }

  /**
   * Deletes leases that expired at least `graceMs` ago and returns how many. An expired lease
   * means the same as none (acquire takes it over), so this only keeps the table small: the
   * status job leaves one "not before" lease per bulk it polls. A lease renewed meanwhile is
   * no longer expired and stays.
   */
  async purgeExpired(graceMs: number): Promise<number> {
    const cutoff = instant(new Date(this.clock.now().getTime() - graceMs));
    // Found by a plain read (through leases_expires_ix, locking nothing), deleted by name: a
    // DELETE by expiry would lock that index's entries and then the rows, the opposite order to a
    // claim that takes over an expired lease by name (row first, then its expiry's entry), and
    // MariaDB would pick one of them as a deadlock victim. A lease taken over meanwhile is kept.
    const names = (await this.db.knex<Row>('leases').where('expires_at', '<=', cutoff).select('name')).map((r) =>
      toStr(r.name),
    );
    let purged = 0;
    for (const part of chunks(names, IDS_PER_STATEMENT))
      purged += await againOnDeadlock(() =>
        this.db.knex('leases').whereIn('name', part).where('expires_at', '<=', cutoff).delete(),
      );
    return purged;
  }

  /**
   * Records that `holder` finished the work `name` now, as the row `done:<name>`: it holds
   * nothing (it is expired from the start), it only says who finished it when, so a process
   * that claims the same work later in the same run can tell it was done meanwhile.
   */
  async recordDone(name: string, holder: string): Promise<void> {
    const key = `done:${name}`;
    // Real time, not settle's clock: a done mark orders finishes among processes, and settle's
    // clock may follow a bank's clock that stands still or is set back (tests, the demo).
    const now = instant(new Date());
    // One upsert: the mark is written every night for every company.
    await againOnDeadlock(() =>
      this.db
        .knex('leases')
        .insert({ name: key, holder, acquired_at: now, expires_at: now })
        .onConflict('name')
        .merge(['holder', 'acquired_at', 'expires_at']),
    );
  }

  /**
   * Who finished the work `name` after `since` (real time, as `recordDone` writes), if anyone
   * did. Strictly after: a chain run once more is safe, one never run is not.
   */
  async doneSince(name: string, since: Date): Promise<{ holder: string; at: Date } | undefined> {
    const row = await this.db
      .knex<Row>('leases')
      .where({ name: `done:${name}` })
      .first();
    if (!row) return undefined;
    const at = toDate(row.acquired_at);
    return at.getTime() > since.getTime() ? { holder: toStr(row.holder), at } : undefined;
  }

  /** The current holder, if the lease exists and has not expired. */
  async current(name: string): Promise<Lease | undefined> {
    const row = await this.db.knex<Row>('leases').where({ name }).first();
    if (!row) return undefined;
    const lease = {
      name,
      holder: toStr(row.holder),
      acquiredAt: toDate(row.acquired_at),
      expiresAt: toDate(row.expires_at),
    };
    return lease.expiresAt.getTime() > this.clock.now().getTime() ? lease : undefined;
  }
}
