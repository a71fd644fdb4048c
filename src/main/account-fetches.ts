// Fetches triggered by the bank's account events in `settle serve`: a transaction received or a
// balance updated asks for that account's statements now rather than at the next scheduled
// fetch. Requests are coalesced: the first one for an account starts a short wait
// (`delayMs`, well within a minute), and every request that arrives meanwhile — a bank books a
// whole bulk as many transactions — joins the same fetch. One fetch runs at a time; requests
// arriving during it wait for the next round. The fetch claims each account as the scheduled
// job does, so the two never fetch one account at once; an account the scheduled job has claimed is
// asked for once more after the next wait, since that job may have read the bank before the
// event's transaction was booked.
import { hostname } from 'node:os';
import { runFetchStatements } from '../../jobs/statements/index.js';
import { newId, UnitClaims } from '../store/index.js';
import type { App } from './app.js';
import { fetchStatementsDeps } from './statement-jobs.js';

export const DEFAULT_EVENT_FETCH_DELAY_MS = 20_000;

export type AccountFetchRunner = (accountIds: ReadonlySet<string>) => Promise<ReadonlySet<string>>;

export class AccountFetchCoalescer {
  private readonly pending = new Set<string>();
  private readonly retried = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  /** `run` fetches the accounts and returns the ids it actually fetched. */
  constructor(
    private readonly run: AccountFetchRunner,
    private readonly options: { delayMs: number; onError: (error: unknown) => void },
  ) {}

  request(accountId: string): void {
    if (this.stopped) return;
    this.pending.add(accountId);
    this.schedule();
  }

  /** Drops what waits and lets a running fetch finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    await this.running;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.running !== undefined || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.flush().finally(() => {
        this.running = undefined;
        if (this.pending.size > 0) this.schedule();
      });
    }, this.options.delayMs);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const batch = new Set(this.pending);
    this.pending.clear();
    try {
      const fetched = await this.run(batch);
      for (const id of batch) {
        if (fetched.has(id) || this.retried.has(id)) this.retried.delete(id);
        else if (!this.stopped) {
          this.retried.add(id);
          this.pending.add(id);
        }
      }
    } catch (error) {
      this.options.onError(error);
    }
  }
}

/** The runner of `serve`: each account's company from the accounts table, then the fetch job on those accounts only. */
export function accountFetchRunner(app: App): AccountFetchRunner {
  return async (accountIds) => {
    const runId = newId(app.clock);
    const byCompany = new Map<string, Set<string>>();
    for (const id of accountIds) {
      // An account not fetched yet has no company here: every company's list is searched for it.
      const company = await app.store.accountStatus.companyOf(id);
      for (const c of app.config.companies)
        if (company === undefined || c.id === company) byCompany.set(c.id, (byCompany.get(c.id) ?? new Set()).add(id));
    }
    const companies = app.config.companies.filter((c) => byCompany.has(c.id));
    const units = new UnitClaims({
      leases: app.store.leases,
      holder: `${hostname()}:${process.pid}:${runId.slice(0, 8)}`,
      ttlMs: app.config.schedule.claimTtl,
      logger: app.logger,
      // No last-success record: fetching one account is not the company's fetch.
    });
    try {
      const results = await runFetchStatements({ ...fetchStatementsDeps(app, runId, app.bank()), units }, companies, {
        accounts: accountIds,
      });
      app.logger.info('statements fetched after bank events', {
        accounts: results.map((r) => ({ account: r.accountId, outcome: r.outcome, new: r.inserted })),
      });
      return new Set(results.filter((r) => r.outcome !== 'failed').map((r) => r.accountId));
    } finally {
      units.close();
    }
  };
}
