// The bank client's interface: one method per operation of spec §4 (plus the status and basket
// reads the payment jobs need), typed requests and canonical responses. HttpBankClient
// (http-bank-client.ts) implements it over HTTP; tests and jobs may implement it otherwise.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/index.js';
import type { AnswerKind } from './answer-limits.js';
import type { RetryPolicy, Sleep } from './retry-policy.js';
import type { SecretSource } from './token-provider.js';
import type {
  Account,
  AccountParameters,
  Balance,
  Bank,
  BankingChannel,
  BookingStatus,
  BulkPaymentCreated,
  BulkPaymentRequest,
  CallOptions,
  Consent,
  ConsentLink,
  ConsentStatus,
  CreateConsentRequest,
  DataContext,
  PaymentInformation,
  PaymentStatusReport,
  PostOptions,
  ScaAuthorization,
  SigningBasket,
  Transaction,
} from './types.js';

export interface BankClient {
  // Accounts (spec §4.3)
  listAccounts(
    context: DataContext,
    query?: { withBalance?: boolean; balanceDate?: string; iban?: string; bban?: string; search?: string },
    options?: CallOptions,
  ): AsyncIterable<Account>;
  getAccount(
    context: DataContext,
    accountId: string,
    query?: { balanceDate?: string },
    options?: CallOptions,
  ): Promise<Account>;
  deleteAccount(context: DataContext, accountId: string, options?: CallOptions): Promise<void>;
  getAccountParameters(context: DataContext, accountId: string, options?: CallOptions): Promise<AccountParameters>;
  listBalances(
    context: DataContext,
    accountId: string,
    query?: { dateFrom?: string; dateTo?: string; type?: string },
    options?: CallOptions,
  ): AsyncIterable<Balance>;
  listTransactions(
    context: DataContext,
    accountId: string,
    query: {
      dateFrom: string;
      dateTo?: string;
      bookingStatus: BookingStatus;
      transactionType?: string;
      transactionSource?: string;
    },
    options?: CallOptions,
  ): AsyncIterable<Transaction>;
  getTransactionDetails(
    context: DataContext,
    accountId: string,
    transactionId: string,
    options?: CallOptions,
  ): Promise<Transaction>;
  // Banks (spec §4.4)
  listBanks(
    query?: { countryCode?: string; channels?: readonly string[]; includeAdditionalInformation?: boolean },
    options?: CallOptions,
  ): AsyncIterable<Bank>;
  getBank(
    bankId: string,
    query?: { channels?: readonly string[]; includeAdditionalInformation?: boolean },
    options?: CallOptions,
  ): Promise<Bank>;
  // Consents (spec §4.5)
  createConsent(request: CreateConsentRequest, options?: PostOptions): Promise<ConsentLink>;
  listConsents(query?: { status?: ConsentStatus }, options?: CallOptions): AsyncIterable<Consent>;
  getConsent(consentId: string, options?: CallOptions): Promise<Consent>;
  refreshConsent(consentId: string, properties?: Record<string, string>, options?: CallOptions): Promise<ConsentLink>;
  deleteConsent(consentId: string, options?: CallOptions): Promise<void>;
  // Payments (spec §4.6)
  createBulkPayment(
    resourceGroupName: string,
    request: BulkPaymentRequest,
    options: PostOptions & { consentId?: string; tppRedirectUri?: string },
  ): Promise<BulkPaymentCreated>;
  getBulkPayment(resourceGroupName: string, paymentId: string, options?: CallOptions): Promise<PaymentInformation>;
  getPayment(resourceGroupName: string, paymentId: string, options?: CallOptions): Promise<PaymentInformation>;
  /** The lighter status read (facts §5.15) of a bulk, or of one line with `getPaymentStatus`. */
  getBulkPaymentStatus(
    resourceGroupName: string,
    paymentId: string,
    options?: CallOptions,
  ): Promise<PaymentStatusReport>;
  getPaymentStatus(resourceGroupName: string, paymentId: string, options?: CallOptions): Promise<PaymentStatusReport>;
  /**
   * DELETE of a bulk payment resource (facts §5.16): 202 with the bulk's transactionStatus. The
   * resource is the whole bulk; whether one line of a bulk can be cancelled is not documented.
   */
  cancelBulkPayment(resourceGroupName: string, paymentId: string, options?: CallOptions): Promise<PaymentStatusReport>;
  createSigningBasket(
    resourceGroupName: string,
    paymentIds: readonly string[],
    options?: PostOptions,
  ): Promise<SigningBasket>;
  getSigningBasket(basketId: string, options?: CallOptions): Promise<SigningBasket>;
  startSigningBasketAuthorization(
    basketId: string,
    options?: PostOptions & { tppRedirectUri?: string },
  ): Promise<ScaAuthorization>;
  close(): Promise<void>;
}

/** Told about what operators count: failed bank calls by code, tokens fetched (metrics). */
export interface BankObserver {
  error?(code: string): void;
  tokenFetched?(): void;
}

export interface BankClientOptions {
  baseUrl: string;
  authUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: SecretSource | undefined;
  subscriptionId: string;
  channelType?: BankingChannel;
  apiVersion?: string;
  /** TPP-Redirect-URI for payment initiation and basket authorisation. */
  redirectUri?: string;
  /** OAuth scopes to ask for; default none (the IdP's default grant). */
  scope?: string;
  timeoutMs?: number;
  maxRetries?: number;
  retry?: Partial<RetryPolicy>;
  concurrency?: number;
  /** Size limits per kind of answer in bytes (answer-limits.ts); tests lower them. */
  answerLimits?: Partial<Record<AnswerKind, number>>;
  /** Path segment of the payment product: the initiate path is literally /bulk-payments/credit-transfer (facts §10.5). */
  paymentProduct?: 'credit-transfer' | 'creditTransfer';
  logger: Logger;
  observer?: BankObserver;
  clock?: Clock;
  sleep?: Sleep;
  random?: () => number;
}
