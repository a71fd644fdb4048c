// The storage layer: knex over SQLite (embedded default) or MySQL/MariaDB, forward-only
// migrations, repositories per aggregate, work claims and named leases. See docs/storage.md.
export { openDatabase, rollbackOnly, type Database, type OpenDatabaseOptions } from './database.js';
export { compactSqlite, type Compacted } from './compact.js';
export {
  describeTarget,
  parseDatabaseUrl,
  redactDatabaseUrl,
  type DatabaseTarget,
  type Dialect,
} from './database-url.js';
export { appliedMigrations, MIGRATIONS_TABLE, type MigrateResult, type MigrationStatus } from './migrator.js';
export { MIGRATIONS, type Migration } from './migrations/index.js';
export { createStore, type Store } from './store.js';
export {
  FileLedger,
  type ReceivedHeldPayment,
  type NewPaymentFile,
  type ReceivingFile,
  type StoredFile,
} from './file-ledger.js';
export {
  PaymentRepository,
  type BankStatusUpdate,
  type OwnPayment,
  type PlannableStoredPayment,
  type RequestLine,
  type StoredPayment,
  type TppMessage,
} from './payments.js';
export { PaymentViews, type BulkFilter, type PaymentStory } from './payment-views.js';
export {
  BadCursorError,
  ConsoleViews,
  type ConsoleAccount,
  type ExportedDay,
  type PageQuery,
  type Paged,
  type PaymentSearch,
  type WaitingBasket,
  type ApprovalMarks,
  type FindingFilter,
} from './console-views.js';
export { OperatorViews, UNRESOLVED_BULK_STATES } from './operator-views.js';
export type { FindingBooking, FindingFacts } from './finding-facts.js';
export type { BasketHistory } from './basket-history.js';
export {
  BOARD_FILTERS,
  BOARD_PAGE_SIZE,
  BoardViews,
  type BoardCompany,
  type BoardFilter,
  type BoardOrder,
  type BoardPage,
  type BoardQuery,
  type BoardStep,
} from './board-views.js';
export { TodayViews, type TodayBulk, type TodayConsent, type TodayGap, type TodayLink } from './today-views.js';
export { ReportGoneError, ReportRepository, type ReportEntry, type ReportInput, type ReportKind } from './reports.js';
export { ConsoleSessions, type ActiveConsoleSession, type NewConsoleSession } from './console-sessions.js';
export { SignInFailures, type FailureCounts, type Reservation, type SignInLimits } from './sign-in-failures.js';
export { BulkOutbox, type BulkPlan, type StoredBulk } from './bulks.js';
export { BasketRepository, type StoredBasket } from './baskets.js';
export {
  ExportRepository,
  highestSequenceNumber,
  type ExportInput,
  type NumberedPeriod,
  type StoredExport,
} from './exports.js';
export { StatementDayRepository, type StatementDay } from './statement-days.js';
export { ExportFloorRepository, FIRST_DAY, type ExportFloor } from './export-floors.js';
export { LegalSequenceRepository } from './legal-sequence.js';
export {
  StatementRepository,
  type AccountInput,
  type BalanceInput,
  type BankTransactionInput,
  type BookingStatus,
  type FetchedAccount,
  type FetchStart,
  type StoredAccount,
  type StoredFetch,
  type BookedReturn,
  type StoredTransaction,
  type UpsertResult,
} from './statements.js';
export { LeaseRepository, type Lease, type LeasedRun } from './leases.js';
export {
  AttentionRepository,
  type BrokenDayRow,
  type CountedKind,
  type ExpiringConsentRow,
  type UnknownBulkRow,
  type WaitingBasketRow,
} from './attention.js';
export {
  describeClaimed,
  UnitClaims,
  unitName,
  type ClaimedUnit,
  type UnitClaimsOptions,
  type UnitRun,
  type WorkUnit,
} from './unit-claims.js';
export { RetentionRepository, type BookkeepingCutoff, type PurgeCounts, type RetentionOptions } from './retention.js';
export { JobRunRepository, type FinishedRuns, type JobOutcome, type JobRun } from './job-runs.js';
export { JobSuccessRepository, type JobSuccess } from './job-successes.js';
export { DedupeRepository, type IncomingEvent } from './dedupe.js';
export { AccountStatusRepository, type AccountStatus } from './account-status.js';
export {
  BankAccountRepository,
  type AccountDirectory,
  type BankAccountInput,
  type StoredBankAccount,
} from './bank-accounts.js';
export {
  CONSENT_SOURCES,
  ConsentRepository,
  type ConsentRecord,
  type ConsentSource,
  type StoredConsent,
} from './consents.js';
export { AuditRefusals, REFUSED_ACTION, type Refusal } from './audit-refusals.js';
export {
  AUDIT_GENESIS,
  AuditTrail,
  auditCompanyOf,
  type AuditScope,
  type AuditCheck,
  type AuditCheckpoint,
  type AuditEntry,
  type AuditEntryInput,
} from './audit-trail.js';
export {
  PeriodSignoffRepository,
  type FindingChange,
  type OpenFinding,
  type PeriodBalance,
  type PeriodTypeTotal,
  type SignoffInput,
  type SignoffState,
  type StoredSignoff,
} from './period-signoffs.js';
export {
  FindingRepository,
  type Assignment,
  type Decision,
  type FindingDecisionKind,
  type FindingSeen,
  type StoredFinding,
} from './findings.js';
export {
  ReceivableRepository,
  type ReceivableFile,
  type ReceivableLine,
  type StoredReceivable,
} from './receivables.js';
export { ShortIdentifierRepository } from './short-identifiers.js';
export {
  CancellationRepository,
  type BulkFile,
  type CancellationChannel,
  type PaymentToCancel,
  type CancellationOutcome,
  type NewCancellation,
  type StoredCancellation,
} from './cancellations.js';
export { CancellationAnswerRepository, type PendingErpAnswer } from './cancellation-answers.js';
export {
  HeldPaymentRepository,
  type HeldPayment,
  type HoldDecision,
  type HoldInput,
  type ReleasedHold,
} from './held-payments.js';
export { pickupFacts } from './pickup-facts.js';
export {
  CLAIMABLE_TABLES,
  claim,
  releaseClaim,
  renewClaim,
  type ClaimableTable,
  type ClaimOptions,
  type ClaimWhere,
} from './claim.js';
export { listTransitions } from './transition-history.js';
export {
  type EntityType,
  type TransitionKind,
  type TransitionRecord,
  type TransitionResult,
  type TransitionSource,
} from './transitions.js';
export { claimedElsewhere, type ClaimedRows } from './claimed-elsewhere.js';
export { basketIdempotencyKey, bulkIdempotencyKey, companyBulkIdempotencyKey, newId } from './ids.js';
export { describeDatabaseError, isDatabaseBusy } from './busy.js';
export { isUniqueViolation, toBigInt, toInt, type Row } from './rows.js';
export { applyPlan } from './apply-plan.js';
