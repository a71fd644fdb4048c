// A reload of `settle serve` (SIGHUP, `settle reload`, systemd's ExecReload): the configuration
// is read and validated again, every file it includes too, and only a valid one is applied; an
// invalid one is logged with its located problems and the running configuration stays.
// What a reload applies: the companies (with their people), the shared people, the included
// files, new transports and the console's local users, which is what onboarding and
// offboarding a company or a person change. Everything else (database, bank, server, schedule,
// console listener, alerts, a changed transport) is what the process started with: a change to
// it is logged as waiting for a restart. The scheduler reads the companies at each run, so a new
// company is in the next run, and a run in progress keeps its companies and its claims: nothing
// of the scheduler or of the leases in the database is touched. People who lost a role, and
// local users who were removed, have their console sessions ended.
import { createHash } from 'node:crypto';
import type { Config, ConfigProblem } from '../config/index.js';
import { isSettleError } from '../domain/errors.js';
import { Secret } from '../log/index.js';
import { revokeSessionsOf } from '../server/console/sessions.js';
import type { App } from './app.js';
import type { RunningConsole } from './console.js';
import { whoLostAccess } from './lost-access.js';

export interface ReloadOutcome {
  outcome: 'applied' | 'refused';
  /** RFC 3339. */
  at: string;
  companies?: { added: string[]; removed: string[] };
  /** Changed settings that take effect only at the next restart. */
  restartNeeded?: string[];
  /** Console sessions ended because their person lost a role or their login was removed. */
  sessionsEnded?: number;
  /** Why it was refused: the new configuration's problems, located. */
  problems?: ConfigProblem[];
  error?: string;
}

export interface ReloaderOptions {
  app: App;
  /** Reads and validates the configuration again, as at start (same file, environment and working directory). */
  load: () => Readonly<Config>;
  /** The running console, if any, told the new companies and people. */
  console?: () => RunningConsole | undefined;
  /** Told each outcome (metrics). */
  onOutcome?: (outcome: ReloadOutcome) => void;
}

/** Keys applied by a reload; `source` says where the applied configuration came from. */
const RELOADED = new Set(['companies', 'people', 'include', 'transports', 'console', 'source']);

export class ConfigReloader {
  private last: ReloadOutcome | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ReloaderOptions) {}

  /** The last reload's outcome, if there was one (health). */
  get lastOutcome(): ReloadOutcome | undefined {
    return this.last;
  }

  /** Reloads now; two signals in a row reload one after the other, never at once. */
  reload(): Promise<ReloadOutcome> {
    const next = this.queue.then(() => this.reloadOnce());
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reloadOnce(): Promise<ReloadOutcome> {
    const { app } = this.options;
    const at = app.clock.now().toISOString();
    let loaded: Readonly<Config>;
    try {
      loaded = this.options.load();
    } catch (error) {
      const problems = isSettleError(error, 'ERR_CONFIG_INVALID')
        ? ((error.details?.problems ?? []) as ConfigProblem[])
        : undefined;
      const message = error instanceof Error ? error.message : String(error);
      app.logger.error('configuration reload refused; the running configuration stays', {
        event: 'config-reload-refused',
        error: message,
      });
      return this.done({ outcome: 'refused', at, ...(problems ? { problems } : {}), error: message });
    }
    const before = app.config;
    const { config, restartNeeded } = merged(before, loaded);
    const lost = whoLostAccess(before, config);
    app.reconfigure(config);
    this.options.console?.()?.reconfigure(config);
    let sessionsEnded = 0;
    for (const person of lost.persons) sessionsEnded += await revokeSessionsOf(app.store, { person });
    for (const login of lost.logins) sessionsEnded += await revokeSessionsOf(app.store, { login });
    const ids = (c: Readonly<Config>) => new Set(c.companies.map((co) => co.id));
    const [was, is] = [ids(before), ids(config)];
    const companies = { added: [...is].filter((id) => !was.has(id)), removed: [...was].filter((id) => !is.has(id)) };
    app.logger.info('configuration reloaded', {
      event: 'config-reloaded',
      companies: config.companies.length,
      added: companies.added,
      removed: companies.removed,
      sessionsEnded,
    });
    if (restartNeeded.length)
      app.logger.warn('configuration changes that take effect at the next restart', {
        event: 'config-restart-needed',
        keys: restartNeeded,
      });
    return this.done({ outcome: 'applied', at, companies, restartNeeded, sessionsEnded });
  }

  private done(outcome: ReloadOutcome): ReloadOutcome {
    this.last = outcome;
    this.options.onOutcome?.(outcome);
    return outcome;
  }
}

/**
 * The running configuration with what a reload applies taken from the loaded one, and the keys
 * whose change waits for a restart. Secrets are compared by a hash of their value.
 */
export function merged(
  running: Readonly<Config>,
  loaded: Readonly<Config>,
): { config: Readonly<Config>; restartNeeded: string[] } {
  const restartNeeded = Object.keys(loaded).filter(
    (key) => !RELOADED.has(key) && same(running[key as keyof Config], loaded[key as keyof Config]) === false,
  );
  const { localUsers: _r, ...runningConsole } = running.console;
  const { localUsers: _l, ...loadedConsole } = loaded.console;
  if (!same(runningConsole, loadedConsole)) restartNeeded.push('console');
  const transports = { ...running.transports };
  for (const [name, t] of Object.entries(loaded.transports)) {
    if (!(name in transports)) transports[name] = t;
    else if (!same(transports[name], t)) restartNeeded.push(`transports.${name}`);
  }
  const config: Config = {
    ...running,
    companies: loaded.companies,
    people: loaded.people,
    include: loaded.include,
    transports,
    console: { ...running.console, localUsers: loaded.console.localUsers },
    source: loaded.source,
  };
  return { config: Object.freeze(config), restartNeeded };
}

function same(a: unknown, b: unknown): boolean {
  return fingerprint(a) === fingerprint(b);
}

function fingerprint(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key) {
    // The replacer sees a Secret before its toJSON masks it: compare a hash, never the value.
    const raw = this[key];
    return raw instanceof Secret ? `secret:${createHash('sha256').update(raw.reveal()).digest('hex')}` : raw;
  });
}
