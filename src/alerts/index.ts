// Alerts: e-mail and webhook channels, once for each thing that needs a person, and run summaries.
export { AlertService, type AlertServiceOptions, type RaiseResult } from './alert-service.js';
export { EmailNotifier, type EmailOptions } from './email.js';
export { alertMessage, renderRunSummary, runSummaryMessage } from './run-summary.js';
export {
  alertKey,
  MemoryAlertLedger,
  type AlertLedger,
  type AlertMessage,
  type AlertSubject,
  type AlertKind,
  type AlertWords,
  type Notifier,
  type RunOutcome,
  type RunSummary,
} from './types.js';
export { WebhookNotifier, type WebhookOptions } from './webhook.js';
