// The status use case: what the rest of settle may use of it. Its other files are its own.
export { handleBankEvents, type HandledEvent, type WebhookHandlerDeps } from './events.js';
export { runStatus, type StatusSummary } from './poll.js';
export { runStatusReport, type WrittenStatusReport } from './report.js';
export {
  applyPaymentStatus,
  toStoreTpp,
  type ApplyDeps,
  type LineStatus,
  type StatusOutcome,
  type StatusResult,
  type StatusUpdate,
} from './apply.js';
export {
  EVENT_HOLDER,
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  pollIntervalMs,
  pollLeaseName,
} from './poll-schedule.js';
