// The shapes the export job (jobs/statements/export.ts) takes and gives, in one home so its
// planning and writing files share them without importing the job.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Logger } from '../../src/log/index.js';
import type {
  ExportFloorRepository,
  ExportRepository,
  LegalSequenceRepository,
  PaymentRepository,
  StatementDayRepository,
  StatementRepository,
  StoredAccount,
  UnitClaims,
  ShortIdentifierRepository,
} from '../../src/store/index.js';
import type { FileStore } from '../../src/transport/index.js';
import type { OwnPaymentSource } from './own-payments.js';
import type { ExportUnit } from './render.js';

export interface ExportStatementsDeps {
  statements: StatementRepository;
  days: StatementDayRepository;
  exports: ExportRepository;
  /** settle's own payments, whose ids the statements quote. */
  payments: PaymentRepository;
  legalSequence: LegalSequenceRepository;
  /** Where the automatic export starts looking, per account and format. */
  exportFloors: ExportFloorRepository;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** settle's own payments behind the booked debits: needed when camt.054 debit notifications are configured. */
  ownPayments?: OwnPaymentSource;
  /** Where the stand-ins of ids too long for their field are stored (docs/formats/identifiers.md). */
  shortIdentifiers?: Pick<ShortIdentifierRepository, 'remember'>;
  /** Claims per account (job `export`), so processes running at once share the accounts; accounts another process has claimed are skipped. */
  units?: UnitClaims;
  /** Accounts read together (default 8): their ledgers, days, bookings and legal numbers in one read each. */
  accountsReadTogether?: number;
}

/** An explicit (re-)export of an account's days, whatever was exported before. */
export interface ExplicitExport {
  /** The bank's account id or the account's IBAN. */
  account: string;
  from: LocalDate;
  to: LocalDate;
}

export interface ExportedFile {
  company: string;
  accountId: string;
  format: string;
  period: string;
  /** Relative to the company's root. */
  path: string;
  entries: number;
  sequenceNumber: number;
  /** Statements only (camt.053, CSV): a camt.054 notification has no legal sequence number. */
  legalSequenceNumber?: number;
  /** 1 for the first write of the period; higher for explicit re-exports. */
  version: number;
  explicit: boolean;
}

/** A statement day the export did not write (a break on it or before it, or a writer error), and why. */
export interface WithheldDay {
  company: string;
  accountId: string;
  format: string;
  day: LocalDate;
  reason: string;
}

/** An exported period whose statement, built again from today's data, is no longer the file delivered. */
export interface ChangedExport {
  company: string;
  accountId: string;
  format: string;
  period: string;
  fileName: string;
  reason: string;
}

export interface ExportResult {
  files: ExportedFile[];
  withheld: WithheldDay[];
  /** Delivered statements the bank has changed since (a late booking): re-export them explicitly. */
  changed: ChangedExport[];
}

/** One account's documents of one kind (a statement format or a notification), and where the outcome is collected. */
export interface AccountExport {
  deps: ExportStatementsDeps;
  company: CompanyConfig;
  fileStore: FileStore;
  account: StoredAccount;
  unit: ExportUnit;
  result: ExportResult;
}
