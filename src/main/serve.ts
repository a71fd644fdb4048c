// Assembles `settle serve` from an App: metrics, alert channels, the scheduler with the jobs
// registry, and the HTTP server (webhook, /healthz, /metrics); and takes it all down again in
// order on SIGTERM. The jobs come in as a registry: `defaultServeJobs` wires the nightly chain,
// status polling with the ERP status reports, statement fetching with export, and the
// retention purge.
import type { FastifyInstance } from 'fastify';
import { runExportStatements, fetchNeedsAttention, runFetchStatements } from '../../jobs/statements/index.js';
import { runStatusReport, runStatus } from '../../jobs/status/index.js';
import type { AlertService, Notifier } from '../alerts/index.js';
import {
  buildServer,
  createHealthCheck,
  createMetrics,
  Scheduler,
  type ConfigurationHealth,
  type JobResult,
  type Metrics,
  type RawDelivery,
  type ScheduledJob,
  type ScheduleEntry,
} from '../server/index.js';
import type { BankingEvent } from '../bank/index.js';
import { JobRunRepository } from '../store/index.js';
import { LeaseRepository } from '../store/index.js';
import { ExitCode, SettleError } from '../domain/errors.js';
import type { App } from './app.js';
import { alertAfterRun, createAlerts, nightlySummary } from './alerts.js';
import { configuredDeadlines, deadlineStatuses, DeadlineWatch, WATCHED_JOBS } from './deadlines.js';
import { runNightly } from '../../jobs/nightly/index.js';
import { nightlyDeps } from './nightly-deps.js';
import { paymentJobs } from './payment-jobs.js';
import { exportStatementsDeps, fetchStatementsDeps } from './statement-jobs.js';
import { runPurge } from './purge.js';
import { checkSchemaKnown, forEachCompany, unitClaims } from './work-units.js';
import { AccountFetchCoalescer, accountFetchRunner, DEFAULT_EVENT_FETCH_DELAY_MS } from './account-fetches.js';
import { startConsole, type RunningConsole } from './console.js';
import { ConfigReloader, type ReloadOutcome } from './reload.js';
import type { Config } from '../config/index.js';
import { JobOutcomes } from '../domain/job-outcome.js';

export interface ServeOptions {
  /** Jobs by name; the schedule keys `nightly`, `status`, `statements` and `purge` run the job of that name. Default: defaultServeJobs(app). */
  jobs?: readonly ScheduledJob[];
  /** Applies webhook events; absent: events are recorded in webhook_events, unprocessed, for the status job. */
  onEvents?: (events: BankingEvent[], raw: RawDelivery) => Promise<void>;
  host?: string;
  port?: number;
  /** false: only the HTTP side (a webhook-only instance). */
  scheduler?: boolean;
  /** How long SIGTERM waits for running jobs before asking them to checkpoint. */
  graceMs?: number;
  /** Extra alert channels (tests); the configured ones are always added. */
  notifiers?: readonly Notifier[];
  /** How long a fetch triggered by account events waits to gather more events (default 20 s). */
  eventFetchDelayMs?: number;
  /** How often the console writes refused minutes to the audit trail (tests; default 15 s). */
  refusalFlushMs?: number;
  /** Reads the configuration again for a reload (the CLI's --config and environment); absent: reload refuses. */
  loadConfig?: () => Readonly<Config>;
}

export interface RunningServe {
  readonly url: string;
  readonly server: FastifyInstance;
  /** The web console's address when console.enabled (its own listener). */
  readonly consoleUrl: string | undefined;
  readonly scheduler: Scheduler;
  readonly metrics: Metrics;
  readonly alerts: AlertService;
  /** Validates the configuration again and applies it, or keeps the running one (reload.ts; SIGHUP). */
  reload(): Promise<ReloadOutcome>;
  /** Stops schedules, waits for running jobs (bounded), closes the HTTP server, the alert channels and the app (database, SFTP). */
  stop(): Promise<void>;
}

/** The schedule keys of the configuration and the job each one runs. */
export const SCHEDULED_JOBS = ['nightly', 'status', 'statements', 'purge'] as const;

export async function startServe(app: App, options: ServeOptions = {}): Promise<RunningServe> {
  const { config, logger, clock, db } = app;
  const metrics = createMetrics({
    counts: app.store.attention,
    jobs: {
      finishedRuns: () => app.store.jobRuns.finishedByOutcome(),
      successes: (jobs) => app.store.jobSuccesses.list(jobs),
      companies: () => app.config.companies.map((c) => c.id),
      watched: WATCHED_JOBS,
    },
    logger,
  });
  app.observeBank({
    error: (code) => metrics.bankErrors.inc({ code }),
    tokenFetched: () => metrics.tokenRefreshes.inc(),
  });
  const alerts = createAlerts(app, { metrics, ...(options.notifiers ? { notifiers: options.notifiers } : {}) });
  const jobs = options.jobs ?? defaultServeJobs(app);
  const entries: ScheduleEntry[] = [];
  for (const name of SCHEDULED_JOBS) {
    const job = jobs.find((j) => j.name === name);
    if (job) entries.push({ job, cron: config.schedule[name] });
    else logger.warn('no job registered for this schedule; it does not run', { schedule: name });
  }
  const jobRuns = new JobRunRepository(db, clock);
  const scheduler = new Scheduler({
    entries,
    timeZone: config.timeZone,
    leases: new LeaseRepository(db, clock),
    jobRuns,
    leaseTtlMs: config.schedule.jobLease,
    logger,
    clock,
    metrics,
    // Whatever job ran, what needs a person is read from the database too, so an alert goes out
    // even when the step that noticed the problem ran on another instance or crashed.
    onRunFinished: (summary) => alertAfterRun(app, alerts, summary),
  });
  const accountFetches = new AccountFetchCoalescer(accountFetchRunner(app), {
    delayMs: options.eventFetchDelayMs ?? DEFAULT_EVENT_FETCH_DELAY_MS,
    onError: (error) =>
      logger.warn('fetch after bank events failed; the scheduled fetch reads the account again', {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  const reloader = new ConfigReloader({
    app,
    load:
      options.loadConfig ??
      (() => {
        throw new SettleError('ERR_CONFIG_INVALID', 'this settle serve was started without a configuration to reload');
      }),
    // The console starts after the HTTP server; a reload before that has none to tell.
    console: () => consoleServer,
    onOutcome: ({ outcome }) => {
      metrics.configReloads.inc({ outcome });
      metrics.configReloadRefused.set(outcome === 'refused' ? 1 : 0);
    },
  });
  if (!config.server.webhookAuthorization)
    logger.warn('server.webhookAuthorization is not set: every webhook delivery is refused (401)');
  const server = buildServer({
    db,
    logger,
    clock,
    metrics,
    health: createHealthCheck({
      db,
      jobRuns,
      jobNames: scheduler.jobNames,
      clock,
      successes: () => app.store.jobSuccesses.list(),
      deadlines: () => deadlineStatuses(app),
      configuration: () => configurationHealth(app, reloader),
    }),
    webhook: {
      authorization: config.server.webhookAuthorization,
      maxBodyBytes: config.server.maxBodyBytes,
      onEvents: options.onEvents ?? applyEvents(app, accountFetches),
    },
  });
  const host = options.host ?? config.server.host;
  const port = options.port ?? config.server.port;
  try {
    await server.listen({ host, port });
  } catch (cause) {
    await server.close();
    const reason = (cause as { code?: unknown }).code;
    throw new SettleError(
      'ERR_SERVE_LISTEN',
      `Cannot listen on ${host}:${port} (${typeof reason === 'string' ? reason : cause instanceof Error ? cause.message : 'error'}): another process may use the port, or the address is not on this machine`,
      {
        details: { host, port },
      },
    );
  }
  let consoleServer: RunningConsole | undefined;
  try {
    consoleServer = await startConsole(app, options.refusalFlushMs ? { refusalFlushMs: options.refusalFlushMs } : {});
  } catch (error) {
    await server.close();
    throw error;
  }
  const address = server.server.address();
  const bound = address !== null && typeof address === 'object' ? address : undefined;
  const shown = bound ? (bound.family === 'IPv6' ? `[${bound.address}]` : bound.address) : host;
  const url = `http://${shown}:${bound?.port ?? config.server.port}`;
  if (options.scheduler ?? true) scheduler.start();
  const deadlines = (options.scheduler ?? true) ? watchDeadlines(app, alerts, metrics) : undefined;
  logger.info('settle serve started', { url, holder: scheduler.holder, jobs: scheduler.jobNames });

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      logger.info('settle serve stopping');
      clearInterval(deadlines);
      const [jobsResult] = await Promise.allSettled([
        scheduler.stop(options.graceMs ?? 60_000),
        server.close(),
        accountFetches.stop(),
        consoleServer?.server.close(),
      ]);
      if (jobsResult.status === 'fulfilled' && jobsResult.value.unfinished.length) {
        // Their leases expire after schedule.jobLease; the next run (here or elsewhere) resumes from the database.
        logger.warn('stopped with jobs unfinished', { jobs: jobsResult.value.unfinished });
      }
      await alerts.close();
      await app.close();
      logger.info('settle serve stopped');
    })());
  return {
    url,
    server,
    consoleUrl: consoleServer?.url,
    scheduler,
    metrics,
    alerts,
    reload: () => reloader.reload(),
    stop,
  };
}

/** /healthz's view of the running configuration and of the last reload. */
function configurationHealth(app: App, reloader: ConfigReloader): ConfigurationHealth {
  const last = reloader.lastOutcome;
  return {
    companies: app.config.companies.map((c) => c.id),
    ...(last
      ? {
          lastReload: {
            at: last.at,
            outcome: last.outcome,
            ...(last.problems ? { problems: last.problems } : {}),
          },
        }
      : {}),
  };
}

/** Checks the dead-man deadlines now and every minute (nothing to do when none is configured). */
function watchDeadlines(app: App, alerts: AlertService, metrics: Metrics): NodeJS.Timeout | undefined {
  if (configuredDeadlines(app.config).length === 0) return undefined;
  const watch = new DeadlineWatch(app, alerts, metrics);
  const check = () =>
    void watch.check().catch((error: unknown) =>
      app.logger.warn('cannot check the deadlines', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  check();
  const timer = setInterval(check, DEADLINE_CHECK_MS);
  timer.unref();
  return timer;
}

const DEADLINE_CHECK_MS = 60_000;

/** Webhook events go through the same status transition as polling (jobs/status/apply.ts). */
function applyEvents(app: App, accountFetches: AccountFetchCoalescer): (events: BankingEvent[]) => Promise<void> {
  const payments = paymentJobs(app, {
    bank: app.bank(),
    onAccountActivity: (accountId) => accountFetches.request(accountId),
  });
  return async (events) => void (await payments.handleEvents(events));
}

/**
 * The scheduled jobs: `nightly` runs the whole chain (jobs/nightly/nightly.ts), `status` polls payment
 * status and writes the ERP status reports, `statements` fetches and exports statements,
 * `purge` deletes what retention no longer keeps.
 */
export function defaultServeJobs(app: App): ScheduledJob[] {
  return [
    {
      name: 'statements',
      claimsUnits: true,
      async run(runId, signal): Promise<JobResult> {
        await checkSchemaKnown(app.db);
        const bank = app.bank();
        const units = unitClaims(app, runId);
        const companies = app.config.companies;
        // Claimed per account: instances share the accounts of the bureau, even of one company.
        const fetched = await runFetchStatements({ ...fetchStatementsDeps(app, runId, bank), units }, companies);
        signal.throwIfAborted();
        const exported = await runExportStatements({ ...exportStatementsDeps(app, runId), units }, companies);
        units.close();
        const count = (outcome: string) => fetched.filter((f) => f.outcome === outcome).length;
        const counts = {
          'accounts fetched': count('fetched'),
          'accounts not enabled': count('not-enabled'),
          'accounts not enabled yet': count('not-yet-enabled'),
          'accounts failed': count('failed'),
          'transactions new': fetched.reduce((n, f) => n + f.inserted, 0),
          'statement files': exported.files.length,
          'days withheld': exported.withheld.length,
          'statements changed since delivery': exported.changed.length,
          'units claimed by another instance': units.claimedElsewhere.length,
        };
        const failed = fetched.find((f) => f.outcome === 'failed' && f.error);
        if (failed?.error && count('fetched') === 0) throw new SettleError(failed.error.code, failed.error.message);
        const attention =
          fetchNeedsAttention(fetched) ||
          exported.withheld.length > 0 ||
          exported.changed.length > 0 ||
          counts['accounts failed'] > 0;
        return { outcome: attention ? JobOutcomes.needsPerson : JobOutcomes.ok, counts };
      },
    },
    {
      name: 'nightly',
      claimsUnits: true,
      async run(runId, signal): Promise<JobResult> {
        signal.throwIfAborted();
        const startedAt = app.clock.now();
        const result = await runNightly(nightlyDeps(app), app.config.companies, {
          runId,
          between: () => Promise.resolve(signal.throwIfAborted()),
        });
        const { counts, findings } = nightlySummary(result, startedAt, app.clock.now());
        counts['units claimed by another instance'] = result.claimedElsewhere.length;
        const failed = result.steps.find((step) => !step.ok);
        if (failed?.error && result.steps.every((step) => !step.ok))
          throw new SettleError(failed.error.code, failed.error.message);
        return {
          outcome: result.exitCode === ExitCode.ok ? JobOutcomes.ok : JobOutcomes.needsPerson,
          counts,
          findings,
        };
      },
    },
    {
      name: 'purge',
      claimsUnits: true,
      async run(runId): Promise<JobResult> {
        const units = unitClaims(app, runId);
        try {
          const result = await runPurge(app, units, runId, app.config.companies);
          const counts: Record<string, number> = { 'units claimed by another instance': units.claimedElsewhere.length };
          for (const c of result.companies)
            for (const [what, n] of Object.entries(c.counts)) counts[what] = (counts[what] ?? 0) + n;
          for (const [what, n] of Object.entries(result.shared ?? {})) counts[what] = (counts[what] ?? 0) + n;
          return { outcome: 'ok', counts };
        } finally {
          units.close();
        }
      },
    },
    {
      name: 'status',
      claimsUnits: true,
      async run(runId, signal): Promise<JobResult> {
        await checkSchemaKnown(app.db);
        const payments = paymentJobs(app, { bank: app.bank() });
        const units = unitClaims(app, runId);
        const companies = app.config.companies;
        const polled = await forEachCompany(units, 'status', companies, async (c) => [
          await runStatus(payments.deps('status', runId), [c]),
        ]);
        signal.throwIfAborted();
        const written = await forEachCompany(units, 'status-report', companies, (c) =>
          runStatusReport(payments.deps('status-report', runId), [c]),
        );
        units.close();
        const sum = (key: 'polled' | 'changed' | 'failed') => polled.reduce((n, p) => n + p[key], 0);
        return {
          outcome: 'ok',
          counts: {
            'bulks polled': sum('polled'),
            'status changes': sum('changed'),
            'reads failed': sum('failed'),
            'status files': written.length,
            'units claimed by another instance': units.claimedElsewhere.length,
          },
        };
      },
    },
  ];
}
