// What the payment jobs (submit, approve, status, status report) need from the outside world.
// The composition root (src/main/payment-jobs.ts) builds it from the configuration; tests build
// it directly over a temporary database and the sandbox.
import type { BankClient } from '../../src/bank/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import type { Logger } from '../../src/log/index.js';
import type { Notifier } from '../../src/alerts/types.js';
import type { Store } from '../../src/store/index.js';
import type { FileStore } from '../../src/transport/index.js';
import type { CutOff } from '../../src/domain/cut-off.js';
import type { Locale } from '../../src/i18n/index.js';

export interface PaymentJobDeps {
  store: Store;
  bank: BankClient;
  clock: Clock;
  logger: Logger;
  timeZone: string;
  /** The top-level `locale`: the language of a company's notices when it names none (default English). */
  locale?: Locale;
  /** Who holds work claims: instance id plus run id, e.g. "host-1:4f2c…". */
  holder: string;
  runId: string;
  /** bank.idempotencyRetention: how long the bank keeps an idempotent answer (ms). */
  idempotencyRetentionMs: number;
  /** How long a claim on a bulk or basket lasts before another instance may take it (ms). */
  claimLeaseMs?: number;
  /** How many bulks are sent at the same time (the bank client's concurrency). */
  concurrency?: number;
  /** The company's folders (reports/, status/). */
  fileStore(company: CompanyConfig): Promise<FileStore>;
  /** E-mail to approvers; absent when no SMTP server is configured. */
  approvalMail?: ApprovalMailer;
  /** Each bank's cut-off and the policy for bulks dated today sent after it (config `cutOff`). */
  cutOff?: CutOffSettings;
}

/** config.cutOff: each bank's cut-off by bankId, and what submit does after it. */
export interface CutOffSettings {
  policy: 'roll' | 'refuse';
  banks: Readonly<Record<string, CutOff>>;
}

/** Sends one approval request to the company's approvers (payments.approvers). */
export interface ApprovalMailer {
  send(to: readonly string[], subject: string, text: string): Promise<void>;
}

export type { Notifier };

export const DEFAULT_CLAIM_LEASE_MS = 5 * 60_000;
