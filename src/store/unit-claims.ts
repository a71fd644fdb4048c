// The lease model of settle (docs/storage.md, "Units of work"): work is claimed per unit — a job
// for one company, or for one account of a company — with a short named lease in the database.
// Whoever claims a unit does it; whoever finds it claimed by another skips it and says by whom and until when.
// The holder renews its leases by a heartbeat while it works, so a holder that dies (SIGKILL,
// power) stops renewing and its units can be taken over once the lease lapses: within
// `ttlMs`, not after the longest job. Several processes (a timer run beside a run by hand, N
// instances of `settle serve` sharing a bureau's night) thereby divide the work between them
// and never do one unit twice at once.
import type { Logger } from '../log/logger.js';
import type { LeaseRepository } from './leases.js';

export interface WorkUnit {
  job: string;
  company: string;
  account?: string;
}

export interface ClaimedUnit {
  unit: WorkUnit;
  /** Who has claimed it; undefined when the lease ended between our look and the holder's. */
  holder?: string;
  since?: Date;
  /** When the holder's claim lapses unless it renews it. */
  until?: Date;
}

export type UnitRun<T> = { ran: true; result: T } | { ran: false; claimed: ClaimedUnit };

export interface UnitClaimsOptions {
  leases: LeaseRepository;
  /** Who claims: unique per run (instance and run id), so two runs in one process exclude each other too. */
  holder: string;
  /** How long a claim lasts without a heartbeat. */
  ttlMs: number;
  logger?: Logger | undefined;
  /**
   * Told of units whose work ended without an error (the last-success records of /healthz): a
   * unit alone, or a unit run with `collectDone` together with every unit done within it.
   */
  onDone?: ((units: WorkUnit[]) => Promise<void>) | undefined;
}

export function unitName(unit: WorkUnit): string {
  return ['unit', unit.job, unit.company, ...(unit.account === undefined ? [] : [unit.account])].join(':');
}

/** "submit acme: claimed by host-2:812:4f2c since 02:00:03Z, until 02:00:48Z unless renewed". */
export function describeClaimed(claimed: ClaimedUnit): string {
  const { job, company, account } = claimed.unit;
  const what = `${job} ${company}${account === undefined ? '' : ` account ${account}`}`;
  if (claimed.holder === undefined) return `${what}: claimed by another settle process`;
  const since = claimed.since ? ` since ${claimed.since.toISOString()}` : '';
  const until = claimed.until ? `, until ${claimed.until.toISOString()} unless renewed` : '';
  return `${what}: claimed by ${claimed.holder}${since}${until}`;
}

export class UnitClaims {
  /** Units found claimed by another holder, in the order met. */
  readonly claimedElsewhere: ClaimedUnit[] = [];
  /** Units another holder finished during this run (`run` with `doneSince`); `since` is when. */
  readonly doneElsewhere: ClaimedUnit[] = [];
  private ran = 0;
  private readonly mine = new Map<string, number>();
  /** Which claim of a unit this run holds now: a new number each time it takes the unit anew. */
  private readonly claimNumbers = new Map<string, number>();
  private claimsTaken = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly lostController = new AbortController();
  /**
   * Per company whose `collectDone` unit this run holds, the units of that company done since,
   * written with it. By company, not by async context: Node 20's AsyncLocalStorage puts a hook
   * on every promise of the process, which cost more CPU than the writes it saved.
   */
  private readonly collecting = new Map<string, WorkUnit[]>();

  constructor(private readonly options: UnitClaimsOptions) {}

  get holder(): string {
    return this.options.holder;
  }

  /** Aborts when a claim of this run was lost (its lease lapsed and another holder took it). */
  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  /** Units done by this run. */
  get done(): number {
    return this.ran;
  }

  /** True when the run was asked for units and every one was claimed elsewhere. */
  get allClaimedElsewhere(): boolean {
    return this.ran === 0 && this.claimedElsewhere.length > 0;
  }

  /**
   * Claims the unit and runs `fn` while holding it; when another holder has it, records and
   * returns that. With `doneSince`, a unit another holder finished after that instant is
   * not run again (several instances walking the same companies in one night each do a
   * company once between them, not once each): it is skipped and listed in `doneElsewhere`.
   * With `collectDone`, the successes of the units of the same company this run does meanwhile
   * (within `fn`) are recorded with this unit's at its end, in one write (a company's nightly
   * chain: its steps and accounts).
   */
  async run<T>(
    unit: WorkUnit,
    fn: () => Promise<T>,
    options: { doneSince?: Date; collectDone?: boolean } = {},
  ): Promise<UnitRun<T>> {
    if (!(await this.claim(unit)))
      return { ran: false, claimed: this.claimedElsewhere[this.claimedElsewhere.length - 1] ?? { unit } };
    const name = unitName(unit);
    const within: WorkUnit[] = [];
    const done: WorkUnit[] = [];
    try {
      if (options.doneSince) {
        const done = await this.options.leases.doneSince(name, options.doneSince);
        if (done && done.holder !== this.holder) {
          const claimed: ClaimedUnit = { unit, holder: done.holder, since: done.at };
          this.doneElsewhere.push(claimed);
          return { ran: false, claimed };
        }
      }
      if (options.collectDone) this.collecting.set(unit.company, within);
      const result = await fn();
      this.ran++;
      done.push(unit);
      if (options.doneSince) await this.options.leases.recordDone(name, this.holder);
      return { ran: true, result };
    } finally {
      // The units done within are recorded even when this one's own work failed.
      if (options.collectDone) this.collecting.delete(unit.company);
      await this.recordDone([...within, ...done]);
      await this.release(unit);
    }
  }

  /**
   * Claims every unit it can, runs `fn` once with those (not at all when none), and releases
   * them: for a command that does one job over several companies in one go.
   */
  async runAll<T>(units: readonly WorkUnit[], fn: (claimed: WorkUnit[]) => Promise<T>): Promise<T | undefined> {
    const claimed: WorkUnit[] = [];
    try {
      for (const unit of units) if (await this.claim(unit)) claimed.push(unit);
      if (claimed.length === 0) return undefined;
      const result = await fn(claimed);
      this.ran += claimed.length;
      await this.recordDone(claimed);
      return result;
    } finally {
      for (const unit of claimed) await this.release(unit);
    }
  }

  /**
   * Runs `fn` with `units` claimed together — in one statement when all are free, the usual case
   * (a company's steps for its nightly chain, its accounts for fetch or export) — and released
   * together after it. Within `fn`, `run` of any of them finds it already this run's, so a chain
   * of a dozen units costs two statements instead of two dozen. Units another holder has (or a
   * killed holder left behind) are not taken here: `run` claims them one by one as ever, or finds
   * them claimed and skips.
   */
  async together<T>(units: readonly WorkUnit[], fn: () => Promise<T>): Promise<T> {
    const { leases, holder, ttlMs } = this.options;
    const names = [...new Set(units.map(unitName))].filter((name) => !this.mine.has(name));
    const taken = names.length > 0 && (await leases.acquireAll(names, holder, ttlMs)) ? names : [];
    for (const name of taken) this.hold(name);
    try {
      return await fn();
    } finally {
      await this.letGo(taken);
    }
  }

  /** The work is done whatever the record of it does: a failed record is logged, not thrown. */
  private async recordDone(units: WorkUnit[]): Promise<void> {
    const now = units.filter((unit) => {
      const collecting = this.collecting.get(unit.company);
      collecting?.push(unit);
      return collecting === undefined;
    });
    if (now.length === 0) return;
    try {
      await this.options.onDone?.(now);
    } catch (error) {
      this.options.logger?.warn('cannot record the success of a unit of work', {
        units: now.map(unitName),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private async claim(unit: WorkUnit): Promise<boolean> {
    const name = unitName(unit);
    const { leases, holder, ttlMs, logger } = this.options;
    if (!this.mine.has(name) && !(await leases.acquire(name, holder, ttlMs, { usuallyFree: true }))) {
      const current = await leases.current(name);
      const claimed: ClaimedUnit = current
        ? { unit, holder: current.holder, since: current.acquiredAt, until: current.expiresAt }
        : { unit };
      this.claimedElsewhere.push(claimed);
      logger?.info('unit of work claimed by another settle process; skipped', {
        unit: name,
        claimedBy: claimed.holder,
        until: claimed.until?.toISOString(),
      });
      return false;
    }
    this.hold(name);
    return true;
  }

  /** Counts one more holding of a unit whose lease this run has (taken now, or before). */
  private hold(name: string): void {
    if (!this.mine.has(name)) this.claimNumbers.set(name, ++this.claimsTaken);
    this.mine.set(name, (this.mine.get(name) ?? 0) + 1);
    this.startHeartbeat();
  }

  private async release(unit: WorkUnit): Promise<void> {
    await this.letGo([unitName(unit)]);
  }

  /** Counts one holding less of each; the leases this run no longer has at all are given up in one statement. */
  private async letGo(names: readonly string[]): Promise<void> {
    const free: string[] = [];
    for (const name of names) {
      const left = (this.mine.get(name) ?? 1) - 1;
      if (left > 0) this.mine.set(name, left);
      else {
        this.mine.delete(name);
        this.claimNumbers.delete(name);
        free.push(name);
      }
    }
    if (free.length === 1) await this.options.leases.release(free[0]!, this.options.holder);
    else if (free.length > 1) await this.options.leases.releaseAll(free, this.options.holder);
    if (this.mine.size === 0) this.stopHeartbeat();
  }

  /** Stops the heartbeat (the leases themselves are released as each unit ends). */
  close(): void {
    this.stopHeartbeat();
  }

  private startHeartbeat(): void {
    if (this.timer) return;
    const { ttlMs } = this.options;
    this.timer = setInterval(() => void this.beat(), Math.max(10, Math.floor(ttlMs / 3)));
    this.timer.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Renews every claim of the run in one statement (4 chains of a dozen units: not 48 a beat). */
  private async beat(): Promise<void> {
    const { leases, holder, ttlMs, logger } = this.options;
    const numbers = new Map(this.claimNumbers);
    if (numbers.size === 0) return;
    let lost: string[];
    try {
      lost = await leases.renewAll([...numbers.keys()], holder, ttlMs);
    } catch (error) {
      // A missed beat is harmless while the leases last; the next one tries again.
      logger?.warn('claim renewal failed', {
        units: numbers.size,
        error: error instanceof Error ? error.message : error,
      });
      return;
    }
    for (const name of lost) {
      // The unit's own finish released it while the renewal was under way (and the run may
      // have taken it anew since): nothing was lost, so no warning and no abort.
      if (this.claimNumbers.get(name) !== numbers.get(name)) continue;
      logger?.warn('claim on a unit of work lost: another process may take it over', { unit: name, holder });
      if (!this.lost.aborted) this.lostController.abort(new Error(`claim ${name} lost`));
    }
  }
}
