// Alerts: e-mail and webhook channels, once per finding, and run summaries.
export { AlertService, type AlertServiceOptions, type RaiseResult } from './alert-service.js';
export { EmailNotifier, type EmailOptions } from './email.js';
export { findingMessage, renderRunSummary, runSummaryMessage } from './run-summary.js';
export {
  findingKey,
  MemoryAlertLedger,
  type AlertLedger,
  type AlertMessage,
  type Finding,
  type FindingKind,
  type FindingWords,
  type Notifier,
  type RunOutcome,
  type RunSummary,
} from './types.js';
export { WebhookNotifier, type WebhookOptions } from './webhook.js';
