// Composition of the payment jobs (submit, approve, status, status report) from the composition
// root's App: one bank client and one store over the App's database, an instance id for work
// claims, and e-mail to approvers through the configured SMTP server (alerts.email) when there
// is one. The lead adds `paymentJobs(app)` to App (or calls it beside it).
import { hostname } from 'node:os';
import type { ApprovalMailer, CutOffSettings, PaymentJobDeps } from '../../jobs/payments/index.js';
import type { CutOff } from '../domain/cut-off.js';
import type { BankClient } from '../bank/index.js';
import type { Config } from '../config/index.js';
import { runLogger } from '../log/index.js';
import { EmailNotifier } from '../alerts/email.js';
import { createStore, type Store } from '../store/index.js';
import type { App } from './app.js';
import { createBankClient, type BankClientOverrides } from './bank.js';
import { handleBankEvents, type HandledEvent, type WebhookHandlerDeps } from '../../jobs/status/index.js';
import type { BankingEvent } from '../bank/index.js';

export interface PaymentJobs {
  readonly store: Store;
  readonly bank: BankClient;
  /** Dependencies for one run of a payment job. */
  deps(job: string, runId: string): PaymentJobDeps;
  /** What `settle serve` calls with verified, deduplicated events. */
  handleEvents(events: readonly BankingEvent[]): Promise<HandledEvent[]>;
  close(): Promise<void>;
}

export interface PaymentJobsOptions {
  bank?: BankClient;
  bankOverrides?: BankClientOverrides;
  /** Identifies this settle process in work claims (default host:pid). */
  instanceId?: string;
  /** Told of each account a transaction or balance event named (serve fetches it soon). */
  onAccountActivity?: (accountId: string) => void;
}

export function paymentJobs(app: App, options: PaymentJobsOptions = {}): PaymentJobs {
  const store = createStore(app.db, app.clock);
  const ownBank = options.bank === undefined;
  const bank = options.bank ?? createBankClient(app.config, app.logger, { clock: app.clock, ...options.bankOverrides });
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}`;
  const approvalMail = approvalMailer(app.config);
  const webhookDeps: WebhookHandlerDeps = {
    store,
    clock: app.clock,
    logger: runLogger(app.logger, 'webhook', 'serve'),
    ...(options.onAccountActivity ? { onAccountActivity: options.onAccountActivity } : {}),
  };
  return {
    store,
    bank,
    deps: (job, runId) => ({
      store,
      bank,
      clock: app.clock,
      logger: runLogger(app.logger, job, runId),
      timeZone: app.config.timeZone,
      locale: app.config.locale,
      holder: `${instanceId}:${runId}`,
      runId,
      idempotencyRetentionMs: app.config.bank.idempotencyRetention,
      claimLeaseMs: app.config.schedule.claimTtl,
      concurrency: app.config.bank.concurrency,
      fileStore: (company) => app.fileStores.fileStore(company),
      ...(approvalMail ? { approvalMail } : {}),
      cutOff: cutOffSettings(app.config),
    }),
    handleEvents: (events) => handleBankEvents(webhookDeps, events),
    async close() {
      if (ownBank) await bank.close();
    },
  };
}

/** config.cutOff with each bank's zone filled in (the top-level timeZone when the bank names none). */
function cutOffSettings(config: Readonly<Config>): CutOffSettings {
  const banks: Record<string, CutOff> = {};
  for (const [bankId, c] of Object.entries(config.cutOff.banks))
    banks[bankId] = { time: c.time, timeZone: c.timeZone ?? config.timeZone, calendar: c.calendar };
  return { policy: config.cutOff.policy, banks };
}

/** E-mail to a company's approvers through alerts.email's SMTP server; undefined without one. */
export function approvalMailer(config: Readonly<Config>): ApprovalMailer | undefined {
  const smtp = config.alerts.email;
  if (smtp === undefined) return undefined;
  return {
    async send(to, subject, text) {
      const mail = new EmailNotifier({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        username: smtp.username,
        password: smtp.password,
        from: smtp.from,
        to,
      });
      try {
        await mail.send({ type: 'finding', subject, text, payload: {} });
      } finally {
        await mail.close();
      }
    },
  };
}
