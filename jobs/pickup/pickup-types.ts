// What a pickup is given (its dependencies) and what it gives back (a line per file), and what
// the steps of one company's pickup share; in a file of their own so every step can name them.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import type { ErrorCode } from '../../src/domain/errors.js';
import type { CsvProfile } from '../../src/formats/csv-profile/index.js';
import type { Locale } from '../../src/i18n/index.js';
import type { Logger } from '../../src/log/index.js';
import type { FileLedger, ReportRepository } from '../../src/store/index.js';
import type { ControlSetup } from '../../src/domain/controls/index.js';
import type { EarlierLook, FileStore } from '../../src/transport/index.js';
import type { Camt055Answer } from '../cancel/index.js';
import type { DebtorAccountCheck } from '../accounts/index.js';
import type { DirectoryUnreachable } from '../accounts/index.js';

export type PickupOutcome =
  'accepted' | 'partially-accepted' | 'rejected' | 'duplicate' | 'healed' | 'cancellation' | 'waiting' | 'refused';

export interface PickedFile {
  company: string;
  name: string;
  outcome: PickupOutcome;
  payments: number;
  /** Where the original went, relative to the company's root (a waiting file stays in the inbox). */
  movedTo: string;
  /** The error report, when one was written. */
  report?: string;
  /** Absent for a file left waiting: it was not read. */
  sha256?: string;
  /** Why a `waiting` file was left in the inbox for the next run, in the operator's words. */
  waitingFor?: string;
  /** Why a `refused` file was left in the inbox unread: it was not what its listing said, or not a file. */
  refused?: { code: ErrorCode; message: string };
  /** Lines held for a person (likely duplicates, payment controls): not sent until a person decides. */
  held?: number;
  /** The held lines, located in the file's own words: its line and end-to-end id, and the rules. */
  heldLines?: HeldLineSummary[];
}

export interface HeldLineSummary {
  lineNumber: number;
  endToEndId: string;
  rules: string[];
}

export interface PickupDeps {
  ledger: FileLedger;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  /** Local scratch folder for downloaded copies. */
  workDir: string;
  fileStore(company: CompanyConfig): Promise<FileStore>;
  profile(name: string): Promise<CsvProfile>;
  /**
   * The check of debtor accounts against the company's accounts at its banks (read at most once
   * per run); `unreachable` when the bank did not answer (the files wait in the inbox), undefined
   * when the company names no bank (no check).
   */
  debtorAccounts?(company: CompanyConfig): Promise<DebtorAccountCheck | DirectoryUnreachable | undefined>;
  /** Each company's inbox as a look at the start of the run saw it (lookAtInboxes), by company id. */
  earlierLooks?: ReadonlyMap<string, EarlierLook>;
  /** Wait between the two looks of the stable-file check (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
  /** True the first time a finding with this key is seen (later runs stay quiet about it). */
  firstSighting?(key: string): Promise<boolean>;
  /** Carries out a camt.055 cancellation request from the ERP (jobs/cancel/camt055-intake.ts). */
  cancellationRequest?(company: CompanyConfig, file: { name: string; xml: string }): Promise<Camt055Answer>;
  /** Records each error report of a file in the ledger, so the console links it by id. */
  reports?: Pick<ReportRepository, 'record'>;
  /** The language of the reports of a company that names none (config `locale`); default English. */
  locale?: Locale;
  /** The company's payment controls (jobs/controls/controls.ts), read once per run; none: no control holds. */
  controls?(company: CompanyConfig): Promise<ControlSetup | undefined>;
}

/** One company's inbox: what the steps of a pickup share. */
export interface CompanyInbox {
  deps: PickupDeps;
  company: CompanyConfig;
  fileStore: FileStore;
  debtorCheck?: DebtorAccountCheck | undefined;
  controls?: ControlSetup | undefined;
}
