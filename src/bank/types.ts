// What the rest of settle sees of the bank: canonical, typed values. The readers (readers.ts)
// turn whatever the bank wrote into these shapes; every record also keeps `raw`, the object as
// received, so fields this code does not know yet are never lost.

/** ISO 20022 payment status codes, always upper-case here (the bank writes both casings). */
export const TRANSACTION_STATUSES = [
  'RCVD',
  'PDNG',
  'ACTC',
  'ACCP',
  'ACSP',
  'ACSC',
  'ACCC',
  'ACWC',
  'ACWP',
  'ACFC',
  'PATC',
  'PART',
  'RJCT',
  'CANC',
] as const;
export type KnownTransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** A known code, or an unknown one upper-cased as the bank sent it (kept, never dropped). */
export type TransactionStatus = KnownTransactionStatus | (string & {});

/** Consent statuses in PascalCase (the casing of spec §3.1 and the bank's examples). */
export const CONSENT_STATUSES = [
  'Unknown',
  'Created',
  'Started',
  'Authorized',
  'AwaitingApproval',
  'Expired',
  'Revoked',
  'Failure',
] as const;
export type KnownConsentStatus = (typeof CONSENT_STATUSES)[number];

/**
 * Account statuses settle knows, lower case (`canonicalAccountStatus`): spec §3.3 shows
 * `enabled`, the bank's example `Active`; the others are the Berlin Group's and the sandbox's.
 * Only `enabled` makes an account usable; another status is shown as the bank sent it.
 */
export const ACCOUNT_STATUSES = ['enabled', 'active', 'disabled', 'blocked', 'deleted'] as const;
export type KnownAccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type ConsentStatus = KnownConsentStatus | (string & {});

export type BankingChannel = 'openBanking' | 'unspecified' | 'psd2';
export type LinkVerb = 'get' | 'post' | 'put' | 'delete';

export interface Link {
  href: string;
  verb?: LinkVerb;
}

/** tppMessage (REST) and tppMessages (events) in one shape. */
export interface TppMessage {
  category?: 'error' | 'warning';
  code: string;
  text?: string;
}

export interface Amount {
  /** Decimal string exactly as the bank sent it; parse with domain/money.parseAmount. */
  amount: string;
  currency?: string;
}

export interface AccountReference {
  iban?: string;
  bban?: string;
  currency?: string;
  other?: { identification: string; schemeName: string };
}

export interface Balance {
  balanceAmount: Amount;
  balanceType: string;
  referenceDate?: string;
  lastChangeDate?: string;
  raw: Record<string, unknown>;
}

export interface Account {
  id: string;
  iban?: string;
  bban?: string;
  bic?: string;
  currency?: string;
  name?: string;
  displayName?: string;
  ownerName?: string;
  /** Lower-case (`enabled` is the only value spec §3.3 shows); absent when the bank sent none. */
  status?: string;
  bankId?: string;
  /** A non-IBAN account reference (Bankgirot, PlusGirot, …). */
  other?: { identification: string; schemeName: string };
  balances: Balance[];
  raw: Record<string, unknown>;
}

export interface AccountParameters {
  account?: AccountReference;
  preApproval?: boolean;
  numberOfApprovers?: number;
  raw: Record<string, unknown>;
}

export type BookingStatus = 'booked' | 'pending' | 'both' | 'information' | 'all';

/** `type` is the bank's referenceType (e.g. "KID", "RF", "SCOR"); "SCOR" when it gave none. */
export interface CreditorReferenceField {
  reference: string;
  type: string;
}

export interface Transaction {
  transactionId: string;
  accountId?: string;
  /** `booked` or `pending`: from the item or from the list it came in. */
  bookingStatus?: string;
  entryReference?: string;
  endToEndIds: string[];
  bookingDate?: string;
  valueDate?: string;
  transactionAmount: Amount;
  creditorName?: string;
  creditorAccount?: AccountReference;
  debtorName?: string;
  debtorAccount?: AccountReference;
  remittanceInformation?: string;
  /** The structured creditor reference (a KID, an RF reference) as the bank sent it, unchecked. */
  creditorReference?: CreditorReferenceField;
  transactionType?: string;
  paymentId?: string;
  /** The servicer's (archive) reference: references.accountServicerReference (v4) or top level. */
  accountServicerReference?: string;
  /** references.instructionId: the InstrId of the instruction. */
  instructionId?: string;
  /** The bank's booking text. */
  additionalInformation?: string;
  /** As the bank sent it: an ISO code "PMNT-ICDT-ESCT" or its own. */
  bankTransactionCode?: string;
  /** The bank's own code, when it gave one beside an ISO bankTransactionCode. */
  proprietaryBankTransactionCode?: string;
  /** amountDetails.instructedAmount. */
  instructedAmount?: Amount;
  /** The reason code of a payment that came back (returnReason, as a code or {code}). */
  returnReason?: string;
  raw: Record<string, unknown>;
}

export interface PropertyRequirement {
  key: string;
  required: boolean;
  description?: string;
}

export interface Bank {
  bankId: string;
  name?: string;
  countryCode?: string;
  bic?: string;
  channels: string[];
  onboardingLinks: { title?: string; href: string }[];
  bankOrder?: { required?: boolean; description?: string; leadTimeBusinessDays?: number };
  propertyRequirements: PropertyRequirement[];
  raw: Record<string, unknown>;
}

export interface Consent {
  consentId: string;
  resourceId?: string;
  status: ConsentStatus;
  bankId?: string;
  expiresAtUtc?: string;
  raw: Record<string, unknown>;
}

export interface ConsentLink {
  consentId: string;
  status: ConsentStatus;
  /** The SCA link: single use, expires within 7 days (spec §3.4). */
  redirectUrl?: string;
  resourceId?: string;
  state?: string;
  replayed: boolean;
  raw: Record<string, unknown>;
}

export interface CreateConsentRequest {
  bankId: string;
  /** Organisation number; also the resource group name. */
  organisationNumber: string;
  displayName?: string;
  accountNumbers?: readonly string[];
  numberOfApprovers?: number;
  /** Extra properties a bank requires (GET /banks/{id} shows them). */
  properties?: Record<string, string>;
  channelType?: BankingChannel;
  state?: string;
  redirectSettings?: { success?: string; error?: string };
}

export interface PaymentLineRequest {
  endToEndIdentification: string;
  instructedAmount: { currency: string; amount: string };
  creditorAccount: { iban: string };
  /** The creditor's bank, as a BIC (Berlin Group's `creditorAgent`). */
  creditorAgent?: string;
  creditorName: string;
  /** On whose behalf the debtor pays, and for whom the payment is meant: names. */
  ultimateDebtor?: string;
  ultimateCreditor?: string;
  /** ISO 20022 purpose code (ExternalPurpose1Code). */
  purposeCode?: string;
  remittanceInformationUnstructured?: string;
  /** The creditor reference (a KID or an RF reference), with its type when it reads as one. */
  remittanceInformationStructured?: { reference: string; referenceType?: 'KID' | 'RF' };
  instructionPriority?: string;
}

export interface BulkPaymentRequest {
  debtorAccount: { iban: string; currency?: string };
  debtorName?: string;
  requestedExecutionDate: string;
  batchBookingPreferred?: boolean;
  paymentLines: readonly PaymentLineRequest[];
}

export interface BulkPaymentCreated {
  paymentId: string;
  transactionStatus: TransactionStatus;
  /** True when the bank answered from its idempotency store (the payment existed already). */
  replayed: boolean;
  httpStatus: number;
  tppMessages: TppMessage[];
  /** Each line's status as the answer gives it, when it lists the lines (the sandbox does: RCVD). */
  paymentLines?: PaymentLineStatus[];
  raw: Record<string, unknown>;
}

export interface PaymentLineStatus {
  paymentId?: string;
  endToEndIdentification?: string;
  transactionStatus?: TransactionStatus;
  tppMessages: TppMessage[];
  raw: Record<string, unknown>;
}

export interface PaymentInformation {
  paymentId: string;
  transactionStatus: TransactionStatus;
  tppMessages: TppMessage[];
  requestedExecutionDate?: string;
  debtorAccount?: AccountReference;
  /** Lines of a bulk payment; empty for a single payment. */
  paymentLines: PaymentLineStatus[];
  endToEndIdentification?: string;
  links: Record<string, Link>;
  raw: Record<string, unknown>;
}

export interface PaymentStatusReport {
  paymentId: string;
  transactionStatus: TransactionStatus;
  tppMessages: TppMessage[];
  raw: Record<string, unknown>;
}

export interface SigningBasket {
  basketId: string;
  transactionStatus?: TransactionStatus;
  paymentIds: string[];
  requiredAuthorizations?: number;
  remainingAuthorizations?: number;
  replayed: boolean;
  raw: Record<string, unknown>;
}

export interface ScaAuthorization {
  authorizationId?: string;
  scaStatus?: string;
  /** Where the approver completes identity verification; single use. */
  scaRedirect?: string;
  replayed: boolean;
  raw: Record<string, unknown>;
}

/**
 * The data-access context of spec §4.2. Data retrieval after onboarding uses the resource group
 * (the organisation number) with the configured subscription; Scopes and Consent-ID are the
 * alternatives the bank also accepts.
 */
export type DataContext = { resourceGroupName: string } | { scopes: readonly string[] } | { consentId: string };

export interface CallOptions {
  /** Only when a person started this request (spec §4.2: limits apply when nobody is present). */
  psuIpAddress?: string;
  signal?: AbortSignal;
}

export interface PostOptions extends CallOptions {
  /** A stable UUID stored before the first attempt; without one a POST is never retried. */
  idempotencyKey?: string;
}
