// Reconciliation: matching rules, findings and their summary. Pure; the reconcile job feeds it.
export {
  DEFAULT_RECONCILE_CONFIG,
  MATCH_RULES,
  resolveReconcileConfig,
  type MatchRule,
  type ReconcileConfig,
} from './config.js';
export { statementGaps } from './statement-gaps.js';
export {
  accountBalances,
  agedItems,
  AGE_BUCKETS,
  type AccountBalance,
  type AgeBucket,
  type AgedItems,
} from './balances.js';
export { applyDecisions, factHash, findingId, findingSubject, type FindingDecision } from './decisions.js';
export { approvalFindings, consentFindings } from './deadlines.js';
export {
  FINDING_TYPE_ORDER,
  FINDING_TYPES,
  findingOf,
  type Acknowledgement,
  type Finding,
  type FindingSeverity,
  type FindingType,
  type FindingTypeInfo,
} from './findings.js';
export type {
  BookedTransaction,
  ConsentState,
  PaymentOutcome,
  PendingApproval,
  SentPayment,
  StatementPeriod,
} from './inputs.js';
export { hasEndToEndId, matchPayments, type Match, type MatchResult } from './match.js';
export { reconcile, type ReconcileContext, type ReconcileInput, type ReconcileResult } from './reconcile.js';
export { summarise, type FindingTypeSummary, type ReconcileSummary } from './summary.js';
