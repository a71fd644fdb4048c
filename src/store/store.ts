// All repositories over one database, for the composition root and the jobs.
import type { Clock } from '../domain/clock.js';
import { AccountStatusRepository } from './account-status.js';
import { AttentionRepository } from './attention.js';
import { BankAccountRepository } from './bank-accounts.js';
import { BasketRepository } from './baskets.js';
import { BulkOutbox } from './bulks.js';
import { CancellationRepository } from './cancellations.js';
import { CancellationAnswerRepository } from './cancellation-answers.js';
import { claimedElsewhere, type ClaimedRows } from './claimed-elsewhere.js';
import { claim, releaseClaim, renewClaim, type ClaimableTable, type ClaimOptions } from './claim.js';
import { ConsentRepository } from './consents.js';
import { ConsoleViews } from './console-views.js';
import { OperatorViews } from './operator-views.js';
import { ReportRepository } from './reports.js';
import { SignInFailures } from './sign-in-failures.js';
import { ConsoleSessions } from './console-sessions.js';
import { TodayViews } from './today-views.js';
import { BoardViews } from './board-views.js';
import type { Database } from './database.js';
import { DedupeRepository } from './dedupe.js';
import { ExportFloorRepository } from './export-floors.js';
import { ExportRepository } from './exports.js';
import { FileLedger } from './file-ledger.js';
import { HeldPaymentRepository } from './held-payments.js';
import { JobRunRepository } from './job-runs.js';
import { JobSuccessRepository } from './job-successes.js';
import { LeaseRepository } from './leases.js';
import { PaymentRepository } from './payments.js';
import { PaymentViews } from './payment-views.js';
import type { Row } from './rows.js';
import { listTransitions } from './transition-history.js';
import type { EntityType, TransitionRecord } from './transitions.js';
import { StatementDayRepository } from './statement-days.js';
import { LegalSequenceRepository } from './legal-sequence.js';
import { StatementRepository } from './statements.js';
import { AuditRefusals } from './audit-refusals.js';
import { AuditTrail } from './audit-trail.js';
import { FindingRepository } from './findings.js';
import type { AppliedPlan, Plan } from '../domain/plans/plan.js';
import { applyPlan } from './apply-plan.js';
import { PeriodSignoffRepository } from './period-signoffs.js';
import { ReceivableRepository } from './receivables.js';
import { ShortIdentifierRepository } from './short-identifiers.js';

export interface Store {
  readonly files: FileLedger;
  readonly payments: PaymentRepository;
  readonly bulks: BulkOutbox;
  readonly baskets: BasketRepository;
  readonly statements: StatementRepository;
  readonly statementDays: StatementDayRepository;
  readonly legalSequence: LegalSequenceRepository;
  readonly exports: ExportRepository;
  readonly exportFloors: ExportFloorRepository;
  readonly leases: LeaseRepository;
  readonly jobRuns: JobRunRepository;
  /** The last success of each job for each company (/healthz, deadlines). */
  readonly jobSuccesses: JobSuccessRepository;
  readonly dedupe: DedupeRepository;
  /** What needs a person, and rows per state (alerts and metrics). */
  readonly attention: AttentionRepository;
  /** Read model for `settle payments show|list`. */
  readonly paymentViews: PaymentViews;
  readonly consents: ConsentRepository;
  /** The bank's status of each fetched account: which ones are usable. */
  readonly accountStatus: AccountStatusRepository;
  /** Each company's accounts as its banks list them, with the time of the read. */
  readonly bankAccounts: BankAccountRepository;
  /** Read models of the web console's pages, paged by keyset. */
  readonly consoleViews: ConsoleViews;
  /** Read models of the console's operator pages: unknown bulks, held lines, open cancellations. */
  readonly operatorViews: OperatorViews;
  /** What needs a person in one company, for the console's Today page, paged by keyset. */
  readonly today: TodayViews;
  /** The bureau's board: every company's figures, sorted by what needs attention and paged. */
  readonly board: BoardViews;
  /** Reports written for people, recorded with their content: the console links them by id. */
  readonly reports: ReportRepository;
  /** Failed console password sign-ins, for the limit per user name and per address. */
  readonly signInFailures: SignInFailures;
  /** The console's sessions, so that one can be ended (sign-out, password change, roles removed). */
  readonly consoleSessions: ConsoleSessions;
  readonly audit: AuditTrail;
  /** Console actions refused for a missing role, counted per minute before they reach the trail. */
  readonly auditRefusals: AuditRefusals;
  readonly findings: FindingRepository;
  /** Periods finance signed off, and those a later finding reopened. */
  readonly signoffs: PeriodSignoffRepository;
  readonly held: HeldPaymentRepository;
  /** Cancellation requests from people and from the ERP's camt.055 (jobs/cancel/cancel.ts). */
  readonly cancellations: CancellationRepository;
  /** The final camt.029 answers owed to the ERP for camt.055 requests first answered PDCR. */
  readonly cancellationAnswers: CancellationAnswerRepository;
  /** Open receivables from the ERP's files, for matching incoming payments. */
  readonly receivables: ReceivableRepository;
  /** Stand-ins written for ids longer than their ISO 20022 field, mapped back (issue #47). */
  readonly shortIdentifiers: ShortIdentifierRepository;
  /**
   * Applies a use case's plan (src/domain/plans) in one transaction, through transition(): the
   * store's one writer of decided moves (src/store/apply-plan.ts).
   */
  applyPlan(plan: Plan): Promise<AppliedPlan>;
  claim(table: ClaimableTable, options: ClaimOptions): Promise<Row[]>;
  releaseClaim(table: ClaimableTable, ids: readonly string[], holder: string): Promise<number>;
  renewClaim(table: ClaimableTable, ids: readonly string[], holder: string, leaseMs: number): Promise<number>;
  transitions(entityType: EntityType, entityId: string): Promise<TransitionRecord[]>;
  /** Work rows of a company claimed by another holder whose claim has not lapsed. */
  claimedElsewhere(
    table: ClaimableTable,
    where: { company: string; states: readonly string[] },
    holder: string,
  ): Promise<ClaimedRows>;
}

export function createStore(db: Database, clock: Clock): Store {
  const audit = new AuditTrail(db, clock);
  const signoffs = new PeriodSignoffRepository(db, clock, audit);
  return {
    files: new FileLedger(db, clock),
    payments: new PaymentRepository(db, clock),
    bulks: new BulkOutbox(db, clock),
    baskets: new BasketRepository(db, clock),
    statements: new StatementRepository(db, clock),
    statementDays: new StatementDayRepository(db, clock),
    legalSequence: new LegalSequenceRepository(db, clock),
    exports: new ExportRepository(db, clock),
    exportFloors: new ExportFloorRepository(db),
    leases: new LeaseRepository(db, clock),
    jobRuns: new JobRunRepository(db, clock),
    jobSuccesses: new JobSuccessRepository(db, clock),
    dedupe: new DedupeRepository(db, clock),
    attention: new AttentionRepository(db),
    paymentViews: new PaymentViews(db, clock),
    consents: new ConsentRepository(db, clock),
    accountStatus: new AccountStatusRepository(db, clock),
    bankAccounts: new BankAccountRepository(db, clock),
    consoleViews: new ConsoleViews(db),
    operatorViews: new OperatorViews(db),
    today: new TodayViews(db),
    board: new BoardViews(db),
    reports: new ReportRepository(db, clock),
    signInFailures: new SignInFailures(db, clock),
    consoleSessions: new ConsoleSessions(db, clock),
    audit,
    auditRefusals: new AuditRefusals(db, clock, audit),
    findings: new FindingRepository(db, clock, audit, signoffs),
    signoffs,
    held: new HeldPaymentRepository(db, clock),
    cancellations: new CancellationRepository(db, clock),
    cancellationAnswers: new CancellationAnswerRepository(db, clock),
    receivables: new ReceivableRepository(db, clock),
    shortIdentifiers: new ShortIdentifierRepository(db, clock),
    applyPlan: (plan) => applyPlan(db, clock, plan),
    claim: (table, options) => claim(db, clock, table, options),
    releaseClaim: (table, ids, holder) => releaseClaim(db, table, ids, holder),
    renewClaim: (table, ids, holder, leaseMs) => renewClaim({ db, clock }, table, ids, { holder, leaseMs }),
    transitions: (entityType, entityId) => listTransitions(db.knex, entityType, entityId),
    claimedElsewhere: (table, where, holder) => claimedElsewhere(db, clock, table, where, holder),
  };
}
