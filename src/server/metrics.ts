// Prometheus metrics (prom-client) on a registry of our own, not the library's global one, so
// tests and several servers in one process do not share counters. Counters are incremented by
// the scheduler, the webhook route and (wired by the composition root) the bank client;
// the gauges of payments, files and bulks by state are read at scrape time from the counters the
// database keeps with every change (src/store/state-counts.ts): a few rows per company. The job
// series (runs by outcome, last success, per job and per company) are read at scrape time from
// job_runs and job_successes, so a run of the CLI or a systemd timer counts as the scheduler's do.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../log/index.js';
import type { AttentionRepository, CountedKind, FinishedRuns, JobSuccess } from '../store/index.js';

export interface Metrics {
  readonly registry: Registry;
  readonly jobDuration: Histogram<'job'>;
  readonly jobSkipped: Counter<'job' | 'reason'>;
  /** 1 while a job's deadline for a company is missed (alerts.nightlyBy, alerts.statementsBy), else 0. */
  readonly deadlineMissed: Gauge<'job' | 'company'>;
  readonly bankErrors: Counter<'code'>;
  readonly tokenRefreshes: Counter;
  readonly webhookEvents: Counter<'outcome'>;
  /** Events of a type settle does not read, by type: acknowledged (2xx) and counted, never an error. */
  readonly webhookUnknownEvents: Counter<'type'>;
  readonly alerts: Counter<'channel' | 'type' | 'outcome'>;
  /** Configuration reloads of `settle serve` by outcome: applied, refused (src/main/reload.ts). */
  readonly configReloads: Counter<'outcome'>;
  /** 1 while the last reload was refused (the files hold a configuration that does not run), else 0. */
  readonly configReloadRefused: Gauge;
  /** The text/plain exposition of every metric. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  /** The store's state counts for the gauges; without it they stay empty. */
  counts?: Pick<AttentionRepository, 'countByState'>;
  logger?: Logger;
  /** Where the job series are read at scrape time; without it they stay empty. */
  jobs?: JobSources;
  /** Node process metrics (CPU, memory, event loop); default true. */
  processMetrics?: boolean;
}

/** The database's record of job runs, read at every scrape. */
export interface JobSources {
  finishedRuns(): Promise<FinishedRuns[]>;
  /** The last success per company of the `watched` jobs. */
  successes(jobs: readonly string[]): Promise<JobSuccess[]>;
  /** The configured companies: one that never completed a watched job shows 0. */
  companies(): readonly string[];
  /** The jobs whose last success is shown per company (the nightly chain and the statement export). */
  watched: readonly string[];
}

/** Rows per state read at scrape time: kind → metric. */
const STATE_GAUGES: readonly { kind: CountedKind; name: string; help: string }[] = [
  { kind: 'payment', name: 'settle_payments', help: 'Payments by state (scraped from the database).' },
  {
    kind: 'payment_file',
    name: 'settle_payment_files',
    help: 'Payment files by state: accepted, rejected, duplicate, … (scraped from the database).',
  },
  {
    kind: 'bulk',
    name: 'settle_bulks',
    help: 'Bulk credit transfers by state, including unknown (scraped from the database).',
  },
];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'settle_' });
  const registers = [registry];
  // A scrape must not fail because the database is briefly away; /healthz says so.
  const scraped = async (what: string, read: () => Promise<void>): Promise<void> => {
    try {
      await read();
    } catch (error) {
      options.logger?.warn(`metrics: cannot read ${what}`, {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const { jobs } = options;
  new Counter({
    name: 'settle_job_runs_total',
    help: 'Finished job runs by outcome (ok, findings, failed), by any process (read from the database).',
    labelNames: ['job', 'outcome'] as const,
    registers,
    async collect() {
      this.reset();
      if (!jobs) return;
      await scraped('job runs', async () => {
        for (const r of await jobs.finishedRuns()) this.inc({ job: r.job, outcome: r.outcome }, r.runs);
      });
    },
  });
  const jobDuration = new Histogram({
    name: 'settle_job_duration_seconds',
    help: 'Duration of job runs.',
    labelNames: ['job'] as const,
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800, 3600],
    registers,
  });
  const jobSkipped = new Counter({
    name: 'settle_job_skipped_total',
    help: 'Scheduled runs not started: still running here, or another instance has claimed the job.',
    labelNames: ['job', 'reason'] as const,
    registers,
  });
  new Gauge({
    name: 'settle_job_last_success_timestamp_seconds',
    help: 'When a job last finished without failing, by any process (Unix time, read from the database).',
    labelNames: ['job'] as const,
    registers,
    async collect() {
      this.reset();
      if (!jobs) return;
      await scraped('job runs', async () => {
        const last = new Map<string, number>();
        for (const r of await jobs.finishedRuns()) {
          if (r.outcome === 'failed' || !r.lastFinishedAt) continue;
          last.set(r.job, Math.max(last.get(r.job) ?? 0, r.lastFinishedAt.getTime() / 1000));
        }
        for (const [job, at] of last) this.set({ job }, at);
      });
    },
  });
  new Gauge({
    name: 'settle_company_last_success_timestamp_seconds',
    help: 'When the nightly chain (job="nightly") or the statement export (job="export") last completed for a company (Unix time, read from the database; 0: never).',
    labelNames: ['job', 'company'] as const,
    registers,
    async collect() {
      this.reset();
      if (!jobs) return;
      await scraped('job successes', async () => {
        for (const job of jobs.watched) for (const company of jobs.companies()) this.set({ job, company }, 0);
        for (const s of await jobs.successes(jobs.watched))
          this.set({ job: s.job, company: s.company }, s.succeededAt.getTime() / 1000);
      });
    },
  });
  const deadlineMissed = new Gauge({
    name: 'settle_deadline_missed',
    help: 'Whether a job has not completed for a company by its configured deadline (1) or has (0).',
    labelNames: ['job', 'company'] as const,
    registers,
  });
  const bankErrors = new Counter({
    name: 'settle_bank_errors_total',
    help: 'Errors from the banking API by stable code.',
    labelNames: ['code'] as const,
    registers,
  });
  const tokenRefreshes = new Counter({
    name: 'settle_token_refreshes_total',
    help: 'OAuth2 access tokens fetched from the identity provider.',
    registers,
  });
  const webhookEvents = new Counter({
    name: 'settle_webhook_events_total',
    help: 'Webhook events by outcome: accepted, duplicate, rejected.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const webhookUnknownEvents = new Counter({
    name: 'settle_webhook_unknown_events_total',
    help: 'Webhook events of a type settle does not read (acknowledged and ignored), by type.',
    labelNames: ['type'] as const,
    registers,
  });
  const alerts = new Counter({
    name: 'settle_alerts_total',
    help: 'Alert deliveries by channel, type and outcome (sent, failed).',
    labelNames: ['channel', 'type', 'outcome'] as const,
    registers,
  });

  const configReloads = new Counter({
    name: 'settle_config_reloads_total',
    help: 'Configuration reloads (SIGHUP, settle reload) by outcome: applied, refused (invalid; the running one stays).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const configReloadRefused = new Gauge({
    name: 'settle_config_reload_refused',
    help: 'Whether the last configuration reload was refused (1): the files differ from what runs until fixed and reloaded.',
    registers,
  });

  for (const spec of STATE_GAUGES) {
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['state'] as const,
      registers,
      async collect() {
        this.reset();
        const { counts } = options;
        if (!counts) return;
        await scraped(`${spec.kind} states`, async () => {
          for (const [state, n] of await counts.countByState(spec.kind)) this.set({ state }, n);
        });
      },
    });
  }

  return {
    registry,
    jobDuration,
    jobSkipped,
    deadlineMissed,
    bankErrors,
    tokenRefreshes,
    webhookEvents,
    webhookUnknownEvents,
    alerts,
    configReloads,
    configReloadRefused,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
