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
export {
  applyDecisions,
  factHash,
  findingId,
  findingSubject,
  rejectedProposals,
  type FindingDecision,
} from './decisions.js';
export { creditReferenceOf, referenceText, type ReferenceSource } from './credit-reference.js';
export { SCORE_PENALTY, weighEvidence, type Evidence, type EvidenceInput, type Identity } from './evidence.js';
export { nameSimilarity, normaliseName } from './names.js';
export {
  CREDIT_RULES,
  creditFindings,
  MIN_NAME_SIMILARITY,
  proposalKey,
  type CreditRule,
  type OpenReceivable,
  type ReceivableLine,
} from './receivables.js';
export {
  allowedDifferenceMinor,
  DEFAULT_TOLERANCES,
  withinWindow,
  type DayWindow,
  type PercentBase,
  type Tolerances,
} from './tolerances.js';
export { approvalFindings, consentFindings } from './deadlines.js';
export {
  FINDING_TYPE_ORDER,
  FINDING_TYPES,
  findingOf,
  type Acknowledgement,
  type ExceptionReason,
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
export { findingDay, parseSignoffPeriod, type SignoffPeriod } from './signoff-period.js';
