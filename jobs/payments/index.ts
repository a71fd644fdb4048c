// Helpers of the payment jobs (submit, approve, status, status report): the one entry point
// for bank statuses, the send-failure explanations, the bulk request body, the poll schedule,
// unknown-bulk resolution and the approval notice.
export {
  applyPaymentStatus,
  toStoreTpp,
  type ApplyDeps,
  type LineStatus,
  type StatusOutcome,
  type StatusResult,
  type StatusUpdate,
} from './apply-status.js';
export { approvalNoticeText, type ApprovalNotice } from './approval-notice.js';
export { bulkRequest } from './bulk-request.js';
export { DEFAULT_CLAIM_LEASE_MS, type ApprovalMailer, type PaymentJobDeps } from './deps.js';
export {
  explainSendFailure,
  maskIban,
  problemOf,
  type BulkContext,
  type Explained,
  type SendVerdict,
} from './explain.js';
export {
  EVENT_HOLDER,
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  pollIntervalMs,
  pollLeaseName,
} from './poll-schedule.js';
export { CONFIRM_ABSENT_AFTER_DAYS, resolveUnknownBulk, type Resolution, type ResolveDeps } from './resolve-unknown.js';
