// The sandbox's in-memory records. Amounts are bigint minor units; statuses are stored in
// their canonical spelling (uppercase ISO 20022 payment codes, PascalCase consent statuses).
import type { LocalDate } from '../domain/local-date.js';

export type ConsentStatus =
  'Created' | 'Started' | 'Authorized' | 'AwaitingApproval' | 'Revoked' | 'Expired' | 'Failure';
export type PaymentStatus = 'RCVD' | 'ACTC' | 'ACSP' | 'ACSC' | 'RJCT' | 'PART' | 'CANC' | 'PDNG';

export interface Client {
  clientId: string;
  secret: string;
  tenant: string;
  /** Subscriptions this client may reach (its IAM grants). */
  subscriptions: string[];
}

export interface Bank {
  bankId: string;
  name: string;
  countryCode: string;
  bic: string;
  channels: string[];
  isTestBank: boolean;
  onboarding: { links: { title: string; href: string }[] } | null;
  bankOrder: { required: boolean; description: string; leadTimeBusinessDays: number };
  /** Daily cut-off (HH:MM, Oslo time) for same-day execution; "00:00": future dates only. */
  cutOffTime: string;
  propertyRequirements: { key: string; required: boolean; description: string }[];
}

export interface Account {
  id: string;
  subscriptionId: string;
  resourceGroupName: string;
  bankId: string;
  consentId: string;
  iban: string;
  bban: string;
  bic: string;
  currency: string;
  name: string;
  displayName: string;
  ownerName: string;
  status: 'enabled' | 'disabled' | 'deleted';
  preApproval: boolean;
  numberOfApprovers: number;
  /** Booked balance before the first booked transaction. */
  openingMinor: bigint;
  /** Credit line counted in interimAvailable. */
  creditLimitMinor: bigint;
}

export interface Transaction {
  transactionId: string;
  accountId: string;
  entryReference: string;
  endToEndId: string | null;
  bookingDate: LocalDate;
  valueDate: LocalDate;
  minor: bigint; // negative for debits
  currency: string;
  counterpartyName: string;
  counterpartyIban: string | null;
  remittance: string;
  /** A structured creditor reference the payer gave (incoming credits), check digits not guaranteed. */
  creditorReference?: { reference: string; type: CreditorReferenceType };
  transactionType: 'credit' | 'debit';
  paymentId: string | null;
  bookedAt: string;
  /** A batch-booked bulk: the end-to-end ids of its lines (endToEndId is then null). */
  endToEndIds?: string[];
  /** ISO domain-family-subfamily, e.g. PMNT-ICDT-ESCT. */
  bankTransactionCode?: string;
  /** The bank's own code beside the ISO one, as real banks give their booking type. */
  proprietaryBankTransactionCode?: string;
  additionalInformation?: string;
  /** A payment that came back: the ISO return reason code. */
  returnReason?: string;
}

export type CreditorReferenceType = 'KID' | 'RF';

export interface Consent {
  consentId: string;
  subscriptionId: string;
  resourceGroupName: string;
  resourceGroupDisplayName: string;
  bankId: string;
  channelType: string;
  properties: Record<string, string>;
  status: ConsentStatus;
  state: string | null;
  createdAt: number;
  /** Next automatic step for the headless test bank (sandbox ms). */
  nextStepAt: number | null;
  redirectSuccess: string | null;
  redirectError: string | null;
  expiresAtUtc: string | null;
}

export interface TppMessage {
  category: 'error' | 'warning';
  code: string;
  message: string;
}

export interface PaymentLine {
  paymentId: string;
  endToEndIdentification: string;
  minor: bigint;
  currency: string;
  creditorIban: string;
  creditorName: string;
  /** The creditor's bank (BIC), when the request named it. */
  creditorAgent: string | null;
  ultimateDebtor: string | null;
  ultimateCreditor: string | null;
  purposeCode: string | null;
  remittance: string | null;
  /** The structured creditor reference (KID, RF), with its type when the request gave one. */
  structuredReference: { reference: string; referenceType: string | null } | null;
  instructionPriority: string;
  status: PaymentStatus;
  tppMessages: TppMessage[];
  history: { status: PaymentStatus; at: string }[];
  transactionId: string | null;
}

export interface BulkPayment {
  paymentId: string;
  clientId: string;
  subscriptionId: string;
  resourceGroupName: string;
  accountId: string;
  debtorIban: string;
  debtorName: string | null;
  requestedExecutionDate: LocalDate;
  batchBookingPreferred: boolean;
  tppRedirectUri: string | null;
  idempotencyKey: string | null;
  /** The Consent-ID header the payment was initiated under (null: none sent). */
  consentId: string | null;
  createdAt: string;
  status: PaymentStatus;
  lines: PaymentLine[];
  /** When the payment was released to processing (creation, or basket authorisation). */
  releasedAt: number | null;
  acspAt: number | null;
  basketId: string | null;
}

export interface ScaLink {
  code: string;
  kind: 'consent' | 'basket';
  targetId: string;
  authorizationId: string | null;
  createdAt: number;
  expiresAt: number;
  used: boolean;
  redirectUri: string | null;
}

export interface Authorization {
  authorizationId: string;
  scaStatus: 'started' | 'finalised' | 'failed';
  linkCode: string;
}

export interface SigningBasket {
  basketId: string;
  clientId: string;
  subscriptionId: string;
  paymentIds: string[];
  status: 'RCVD' | 'ACTC' | 'RJCT';
  requiredAuthorizations: number;
  authorizations: Authorization[];
  tppRedirectUri: string | null;
  createdAt: string;
}

export interface Rejection {
  code: string;
  message: string;
}
