// Prometheus metrics (prom-client) on a registry of our own, not the library's global one, so
// tests and several servers in one process do not share counters. Counters are incremented by
// the scheduler, the webhook route and (wired by the composition root) the bank client;
// the gauges of payments, files and bulks by state are read at scrape time from the counters the
// database keeps with every change (src/store/state-counts.ts): a few rows per company.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from '../log/index.js';
import type { AttentionRepository, CountedKind } from '../store/index.js';

export interface Metrics {
  readonly registry: Registry;
  readonly jobRuns: Counter<'job' | 'outcome'>;
  readonly jobDuration: Histogram<'job'>;
  readonly jobSkipped: Counter<'job' | 'reason'>;
  readonly jobLastSuccess: Gauge<'job'>;
  /** 1 while a job's deadline for a company is missed (alerts.nightlyBy, alerts.statementsBy), else 0. */
  readonly deadlineMissed: Gauge<'job' | 'company'>;
  readonly bankErrors: Counter<'code'>;
  readonly tokenRefreshes: Counter;
  readonly webhookEvents: Counter<'outcome'>;
  /** Events of a type settle does not read, by type: acknowledged (2xx) and counted, never an error. */
  readonly webhookUnknownEvents: Counter<'type'>;
  readonly alerts: Counter<'channel' | 'type' | 'outcome'>;
  /** The text/plain exposition of every metric. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export interface MetricsOptions {
  /** The store's state counts for the gauges; without it they stay empty. */
  counts?: Pick<AttentionRepository, 'countByState'>;
  logger?: Logger;
  /** Node process metrics (CPU, memory, event loop); default true. */
  processMetrics?: boolean;
}

/** Rows per state read at scrape time: kind → metric. */
const STATE_GAUGES: readonly { kind: CountedKind; name: string; help: string }[] = [
  { kind: 'payment', name: 'settle_payments', help: 'Payment lines by state (scraped from the database).' },
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
  const jobRuns = new Counter({
    name: 'settle_job_runs_total',
    help: 'Finished job runs by outcome (ok, findings, failed).',
    labelNames: ['job', 'outcome'] as const,
    registers,
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
    help: 'Scheduled runs not started: still running here, or the lease is held by another instance.',
    labelNames: ['job', 'reason'] as const,
    registers,
  });
  const jobLastSuccess = new Gauge({
    name: 'settle_job_last_success_timestamp_seconds',
    help: 'When a job last finished without failing (Unix time).',
    labelNames: ['job'] as const,
    registers,
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

  for (const spec of STATE_GAUGES) {
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: ['state'] as const,
      registers,
      async collect() {
        this.reset();
        if (!options.counts) return;
        try {
          for (const [state, n] of await options.counts.countByState(spec.kind)) this.set({ state }, n);
        } catch (error) {
          // A scrape must not fail because the database is briefly away; /healthz says so.
          options.logger?.warn('metrics: cannot count states', {
            kind: spec.kind,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      },
    });
  }

  return {
    registry,
    jobRuns,
    jobDuration,
    jobSkipped,
    jobLastSuccess,
    deadlineMissed,
    bankErrors,
    tokenRefreshes,
    webhookEvents,
    webhookUnknownEvents,
    alerts,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
