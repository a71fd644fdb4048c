// Tolerant readers: one per resource, from the JSON the bank wrote to the canonical types of
// types.ts. Missing optional fields stay absent, nulls are ignored, unknown fields stay in `raw`;
// only a missing identifier (nothing to refer to) is an error.
import { ANSWER_SCHEMAS, fit } from './answer-schemas.js';
import { BankError, BANK_ERROR_CODES } from './bank-error.js';
import {
  asArray,
  asObject,
  asString,
  canonicalAccountStatus,
  canonicalConsentStatus,
  canonicalTransactionStatus,
  readCreditorReference,
  readLinks,
  readStatementDetails,
  readTppMessages,
  type Json,
} from './normalize.js';
import type {
  Account,
  AccountParameters,
  AccountReference,
  Amount,
  Balance,
  Bank,
  BulkPaymentCreated,
  Consent,
  ConsentLink,
  PaymentInformation,
  PaymentLineStatus,
  PaymentStatusReport,
  PropertyRequirement,
  ScaAuthorization,
  SigningBasket,
  Transaction,
} from './types.js';

export function invalid(what: string, detail: string): BankError {
  return new BankError(BANK_ERROR_CODES.invalidResponse, `the bank's ${what} could not be read: ${detail}`);
}

export function object(value: unknown, what: string): Json {
  const o = asObject(value);
  if (!o) throw invalid(what, 'expected a JSON object');
  return o;
}

function required(o: Json, names: readonly string[], what: string): string {
  for (const name of names) {
    // Ids are strings in every answer (spec §5): a number is a misfit, never converted (issue #50).
    if (typeof o[name] === 'number') throw invalid(what, `${name}: expected a string, received a number`);
    const v = asString(o[name]);
    if (v) return v;
  }
  throw invalid(what, `${names[0] ?? 'id'} is missing`);
}

/** Sets `target[key]` only when the value is defined (exactOptionalPropertyTypes-friendly). */
function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

export function readAmount(value: unknown): Amount | undefined {
  const o = asObject(value);
  const amount = o ? asString(o.amount) : undefined;
  if (!o || amount === undefined) return undefined;
  const out: Amount = { amount };
  put(out, 'currency', asString(o.currency));
  return out;
}

export function readAccountReference(value: unknown): AccountReference | undefined {
  const o = asObject(value);
  if (!o) return undefined;
  const out: AccountReference = {};
  put(out, 'iban', asString(o.iban));
  put(out, 'bban', asString(o.bban));
  put(out, 'currency', asString(o.currency));
  const other = asObject(o.other);
  const identification = other ? asString(other.identification) : undefined;
  const schemeName = other ? asString(other.schemeName) : undefined;
  if (identification && schemeName) out.other = { identification, schemeName };
  return Object.keys(out).length ? out : undefined;
}

export function readBalance(value: unknown): Balance | undefined {
  const o = asObject(value);
  if (!o) return undefined;
  const balanceAmount = readAmount(o.balanceAmount);
  const balanceType = asString(o.balanceType);
  if (!balanceAmount || !balanceType) return undefined;
  const out: Balance = { balanceAmount, balanceType, raw: o };
  put(out, 'referenceDate', asString(o.referenceDate));
  put(out, 'lastChangeDate', asString(o.lastChangeDate));
  return out;
}

export function readAccount(value: unknown): Account {
  const o = object(value, 'account');
  const out: Account = { id: required(o, ['id', 'accountId', 'resourceId'], 'account'), balances: [], raw: o };
  for (const key of ['iban', 'bban', 'bic', 'currency', 'name', 'displayName', 'ownerName', 'bankId'] as const)
    put(out, key, asString(o[key]));
  const status = asString(o.status) ?? asString(o.accountStatus);
  if (status) out.status = canonicalAccountStatus(status);
  put(out, 'other', readAccountReference({ other: o.other })?.other);
  out.balances = asArray(o.balances).flatMap((b) => readBalance(b) ?? []);
  return out;
}

export function readAccountParameters(value: unknown): AccountParameters {
  const o = object(value, 'account parameters');
  const out: AccountParameters = { raw: o };
  put(out, 'account', readAccountReference(o.account));
  if (typeof o.preApproval === 'boolean') out.preApproval = o.preApproval;
  if (typeof o.numberOfApprovers === 'number') out.numberOfApprovers = o.numberOfApprovers;
  return out;
}

export function readTransaction(value: unknown, listStatus?: string): Transaction {
  const o = object(value, 'transaction');
  const amount = readAmount(o.transactionAmount);
  if (!amount) throw invalid('transaction', 'transactionAmount is missing');
  const references = asObject(o.references);
  const ids = [...asArray(references?.endToEndIds), o.endToEndIdentification, o.endToEndId].flatMap(
    (v) => asString(v) ?? [],
  );
  const out: Transaction = {
    transactionId: required(o, ['transactionId', 'id', 'entryReference'], 'transaction'),
    endToEndIds: [...new Set(ids)],
    transactionAmount: amount,
    raw: o,
  };
  for (const key of [
    'accountId',
    'entryReference',
    'bookingDate',
    'valueDate',
    'creditorName',
    'debtorName',
    'transactionType',
    'paymentId',
  ] as const) {
    put(out, key, asString(o[key]));
  }
  put(out, 'bookingStatus', asString(o.bookingStatus)?.toLowerCase() ?? listStatus);
  put(out, 'creditorAccount', readAccountReference(o.creditorAccount));
  put(out, 'debtorAccount', readAccountReference(o.debtorAccount));
  const remittance = asString(o.unstructuredRemittanceInformation) ?? asString(o.remittanceInformationUnstructured);
  const lines = asArray(o.unstructuredRemittanceInformationArray).flatMap((v) => asString(v) ?? []);
  put(out, 'remittanceInformation', remittance ?? (lines.length ? lines.join(' ') : undefined));
  Object.assign(out, readStatementDetails(o));
  put(out, 'instructedAmount', readAmount(asObject(o.amountDetails)?.instructedAmount));
  put(out, 'creditorReference', readCreditorReference(o));
  return out;
}

/** Transaction details come wrapped (`transactionsDetails`, `transactionDetails`) or bare. */
export function readTransactionDetails(value: unknown): Transaction {
  const o = object(value, 'transaction details');
  const inner = asObject(o.transactionsDetails) ?? asObject(o.transactionDetails) ?? asObject(o.transaction) ?? o;
  return readTransaction(inner);
}

function readRequirements(value: unknown): PropertyRequirement[] {
  // A list of {key, required, description}, or a map key → {required, description} / boolean.
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const o = asObject(item);
      const key = o ? (asString(o.key) ?? asString(o.name)) : asString(item);
      if (!key) return [];
      const req: PropertyRequirement = { key, required: o?.required === true || o?.required === 'true' };
      put(req, 'description', o ? asString(o.description) : undefined);
      return [req];
    });
  }
  const map = asObject(value);
  if (!map) return [];
  return Object.entries(map).map(([key, v]) => {
    const o = asObject(v);
    const req: PropertyRequirement = { key, required: v === true || o?.required === true };
    put(req, 'description', o ? asString(o.description) : undefined);
    return req;
  });
}

export function readBank(value: unknown): Bank {
  const o = object(value, 'bank');
  const extra = asObject(o.additionalInformation) ?? {};
  const onboarding = o.onboarding;
  const linkItems = Array.isArray(onboarding) ? onboarding : asArray(asObject(onboarding)?.links);
  const onboardingLinks = linkItems.flatMap((item) => {
    const href = asString(item) ?? asString(asObject(item)?.href) ?? asString(asObject(item)?.url);
    if (!href) return [];
    const link: { title?: string; href: string } = { href };
    put(link, 'title', asString(asObject(item)?.title));
    return [link];
  });
  const out: Bank = {
    bankId: required(o, ['bankId', 'id'], 'bank'),
    channels: asArray(o.channels).flatMap((c) => asString(c) ?? []),
    onboardingLinks,
    propertyRequirements: readRequirements(extra.propertyRequirements ?? o.propertyRequirements ?? extra.properties),
    raw: o,
  };
  put(out, 'name', asString(o.name));
  put(out, 'countryCode', asString(o.countryCode)?.toUpperCase());
  put(out, 'bic', asString(o.bic));
  const order = asObject(o.bankOrder);
  if (order) {
    const bankOrder: NonNullable<Bank['bankOrder']> = {};
    if (typeof order.required === 'boolean') bankOrder.required = order.required;
    put(bankOrder, 'description', asString(order.description));
    if (typeof order.leadTimeBusinessDays === 'number') bankOrder.leadTimeBusinessDays = order.leadTimeBusinessDays;
    out.bankOrder = bankOrder;
  }
  return out;
}

export function readConsent(value: unknown): Consent {
  const o = object(value, 'consent');
  fit(ANSWER_SCHEMAS.consent, o, 'consent');
  const extra = asObject(o.additionalData) ?? {};
  const out: Consent = {
    consentId: required(o, ['consentId', 'id'], 'consent'),
    status: canonicalConsentStatus(asString(o.status) ?? 'Unknown'),
    raw: o,
  };
  put(out, 'resourceId', asString(o.resourceId));
  put(out, 'bankId', asString(extra.bankId) ?? asString(o.bankId));
  put(out, 'expiresAtUtc', asString(extra.expiresAtUtc) ?? asString(o.expiresAtUtc));
  return out;
}

export function readConsentLink(value: unknown, replayed: boolean): ConsentLink {
  const o = object(value, 'consent');
  fit(ANSWER_SCHEMAS.consent, o, 'consent');
  const out: ConsentLink = {
    consentId: required(o, ['consentId', 'id'], 'consent'),
    status: canonicalConsentStatus(asString(o.status) ?? 'Unknown'),
    replayed,
    raw: o,
  };
  put(out, 'redirectUrl', asString(o.redirectUrl) ?? asString(readLinks(o._links).scaRedirect?.href));
  put(out, 'resourceId', asString(o.resourceId));
  put(out, 'state', asString(o.state));
  return out;
}

function readLine(value: unknown): PaymentLineStatus | undefined {
  const o = asObject(value);
  if (!o) return undefined;
  fit(ANSWER_SCHEMAS.line, o, 'payment line');
  const out: PaymentLineStatus = { tppMessages: readTppMessages(o), raw: o };
  put(out, 'paymentId', asString(o.paymentId));
  put(out, 'endToEndIdentification', asString(o.endToEndIdentification));
  const status = asString(o.transactionStatus);
  if (status) out.transactionStatus = canonicalTransactionStatus(status);
  return out;
}

export function readBulkPaymentCreated(value: unknown, httpStatus: number, replayed: boolean): BulkPaymentCreated {
  const o = object(value, 'payment');
  fit(ANSWER_SCHEMAS.bulkCreated, o, 'payment');
  const out: BulkPaymentCreated = {
    paymentId: required(o, ['paymentId', 'id'], 'payment'),
    transactionStatus: canonicalTransactionStatus(asString(o.transactionStatus) ?? 'RCVD'),
    replayed,
    httpStatus,
    tppMessages: readTppMessages(o),
    raw: o,
  };
  if (Array.isArray(o.paymentLines)) out.paymentLines = o.paymentLines.flatMap((l) => readLine(l) ?? []);
  return out;
}

export function readPaymentInformation(value: unknown): PaymentInformation {
  const o = object(value, 'payment');
  fit(ANSWER_SCHEMAS.payment, o, 'payment');
  const status = asString(o.transactionStatus);
  if (!status) throw invalid('payment', 'transactionStatus is missing');
  const out: PaymentInformation = {
    paymentId: required(o, ['paymentId', 'id'], 'payment'),
    transactionStatus: canonicalTransactionStatus(status),
    tppMessages: readTppMessages(o),
    paymentLines: asArray(o.paymentLines).flatMap((l) => readLine(l) ?? []),
    links: readLinks(o._links),
    raw: o,
  };
  put(out, 'requestedExecutionDate', asString(o.requestedExecutionDate));
  put(out, 'debtorAccount', readAccountReference(o.debtorAccount));
  put(out, 'endToEndIdentification', asString(o.endToEndIdentification));
  return out;
}

export function readPaymentStatus(value: unknown): PaymentStatusReport {
  const o = object(value, 'payment status');
  fit(ANSWER_SCHEMAS.paymentStatus, o, 'payment status');
  const status = asString(o.transactionStatus);
  if (!status) throw invalid('payment status', 'transactionStatus is missing');
  return {
    paymentId: required(o, ['paymentId', 'id'], 'payment status'),
    transactionStatus: canonicalTransactionStatus(status),
    tppMessages: readTppMessages(o),
    raw: o,
  };
}

export function readSigningBasket(value: unknown, replayed: boolean): SigningBasket {
  const o = object(value, 'signing basket');
  fit(ANSWER_SCHEMAS.signingBasket, o, 'signing basket');
  const out: SigningBasket = {
    basketId: required(o, ['basketId', 'id'], 'signing basket'),
    paymentIds: asArray(o.paymentIds).flatMap((id) => asString(id) ?? []),
    replayed,
    raw: o,
  };
  const status = asString(o.transactionStatus);
  if (status) out.transactionStatus = canonicalTransactionStatus(status);
  if (typeof o.requiredAuthorizations === 'number') out.requiredAuthorizations = o.requiredAuthorizations;
  if (typeof o.remainingAuthorizations === 'number') out.remainingAuthorizations = o.remainingAuthorizations;
  return out;
}

export function readScaAuthorization(value: unknown, replayed: boolean): ScaAuthorization {
  const o = object(value, 'authorisation');
  fit(ANSWER_SCHEMAS.scaAuthorization, o, 'authorisation');
  const links = readLinks(o._links);
  const scaRedirect = asObject(o.scaRedirect);
  const out: ScaAuthorization = { replayed, raw: o };
  put(out, 'authorizationId', asString(o.authorizationId) ?? asString(o.authorisationId));
  put(out, 'scaStatus', asString(o.scaStatus)?.toLowerCase());
  put(out, 'scaRedirect', links.scaRedirect?.href ?? asString(scaRedirect?.href) ?? asString(o.scaRedirect));
  return out;
}
