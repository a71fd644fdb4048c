// `settle serve`: the webhook receiver, /healthz, /metrics and the job scheduler.
export { StoreAlertLedger } from './alert-ledger.js';
export { buildServer, type ServerOptions } from './app.js';
export { scanForAttention, type AttentionScanOptions } from './attention-scan.js';
export { authorizationMatches } from './authorization.js';
export {
  createHealthCheck,
  type ConfigurationHealth,
  type HealthOptions,
  type HealthReport,
  type JobHealth,
} from './health.js';
export { createMetrics, type Metrics, type MetricsOptions } from './metrics.js';
export {
  Scheduler,
  type JobResult,
  type ScheduledJob,
  type ScheduleEntry,
  type SchedulerOptions,
  type TriggerResult,
} from './scheduler.js';
export {
  registerWebhookRoute,
  WEBHOOK_PATH,
  type RawDelivery,
  type WebhookEventLog,
  type WebhookOptions,
} from './webhook-route.js';
