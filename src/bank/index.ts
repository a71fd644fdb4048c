// The bank client (architecture §3): HTTP client of the banking API with OAuth2 client
// credentials, api-version, idempotency, retries, paging, typed errors and the CloudEvents reader.
export {
  BankError,
  BANK_ERROR_CODES,
  codeForStatus,
  errorFromResponse,
  isBankError,
  readProblem,
  type BankErrorCode,
  type FieldError,
  type ProblemFields,
} from './bank-error.js';
export type { BankClient, BankClientOptions, BankObserver } from './bank-client.js';
export { HttpBankClient } from './http-bank-client.js';
// The CloudEvents reader's functions are imported from ./cloud-events.js by the webhook route
// alone: through this index they would load the `cloudevents` package into every command.
export type { BankingEvent, DeliveryHeaders, EventDelivery, EventMeta, RejectedEvent } from './cloud-events.js';
export { BankHttp, type HttpRequest, type HttpResponse } from './http.js';
export {
  canonicalAccountStatus,
  canonicalConsentStatus,
  canonicalTransactionStatus,
  isKnownTransactionStatus,
  readTppMessages,
} from './normalize.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  type RetryPolicy,
  type Sleep,
} from './retry-policy.js';
export { paymentRefFromLink, type PaymentRef } from './payment-links.js';
export { Semaphore } from './semaphore.js';
export { TokenProvider, type SecretSource } from './token-provider.js';
export {
  ACCOUNT_STATUSES,
  CONSENT_STATUSES,
  TRANSACTION_STATUSES,
  type Account,
  type AccountParameters,
  type AccountReference,
  type Amount,
  type Balance,
  type Bank,
  type BankingChannel,
  type BookingStatus,
  type BulkPaymentCreated,
  type BulkPaymentRequest,
  type CallOptions,
  type Consent,
  type ConsentLink,
  type ConsentStatus,
  type CreateConsentRequest,
  type CreditorReferenceField,
  type DataContext,
  type Link,
  type PaymentInformation,
  type PaymentLineRequest,
  type PaymentLineStatus,
  type PaymentStatusReport,
  type PostOptions,
  type ScaAuthorization,
  type SigningBasket,
  type TppMessage,
  type Transaction,
  type TransactionStatus,
} from './types.js';
