// Canonical values out of the bank's spellings (facts §10): statuses in either casing,
// tppMessage and tppMessages, links that may be null, objects or bare strings.
import {
  CONSENT_STATUSES,
  type CreditorReferenceField,
  TRANSACTION_STATUSES,
  type ConsentStatus,
  type Link,
  type LinkVerb,
  type TppMessage,
  type TransactionStatus,
} from './types.js';

const TX = new Set<string>(TRANSACTION_STATUSES);
const CONSENT = new Map<string, ConsentStatus>(CONSENT_STATUSES.map((s) => [s.toLowerCase(), s]));

/** `rcvd`, `Rcvd`, ` RCVD ` → `RCVD`. Unknown codes are kept, upper-cased. */
export function canonicalTransactionStatus(value: string): TransactionStatus {
  return value.trim().toUpperCase();
}

export function isKnownTransactionStatus(value: string): boolean {
  return TX.has(value.trim().toUpperCase());
}

/** `authorized`, `Authorized`, `awaiting_approval`, `AWAITINGAPPROVAL` → PascalCase; unknown kept as sent. */
export function canonicalConsentStatus(value: string): ConsentStatus {
  const key = value
    .trim()
    .replace(/[\s_-]/g, '')
    .toLowerCase();
  return CONSENT.get(key) ?? value.trim();
}

/** Account status in lower case (`enabled`; the bank also shows `Active` in an example). */
export function canonicalAccountStatus(value: string): string {
  return value.trim().toLowerCase();
}

export type Json = Record<string, unknown>;

export function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

export function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Reads `tppMessage` (REST, singular, with category) and `tppMessages` (events, plural) alike. */
export function readTppMessages(source: Json): TppMessage[] {
  const items = [...asArray(source.tppMessage), ...asArray(source.tppMessages)];
  const out: TppMessage[] = [];
  for (const item of items) {
    const o = asObject(item);
    if (!o) continue;
    const code = asString(o.code);
    if (!code) continue;
    const message: TppMessage = { code };
    const category = asString(o.category)?.toLowerCase();
    if (category === 'error' || category === 'warning') message.category = category;
    const text = asString(o.message) ?? asString(o.text);
    if (text) message.text = text;
    out.push(message);
  }
  return out;
}

const VERBS = new Set(['get', 'post', 'put', 'delete']);

/** A link given as {href, verb}, as a bare URL string, or null. */
export function readLink(value: unknown): Link | undefined {
  if (typeof value === 'string') return value ? { href: value } : undefined;
  const o = asObject(value);
  const href = o ? asString(o.href) : undefined;
  if (!o || !href) return undefined;
  const verb = asString(o.verb)?.toLowerCase();
  return verb && VERBS.has(verb) ? { href, verb: verb as LinkVerb } : { href };
}

export function readLinks(value: unknown): Record<string, Link> {
  const o = asObject(value);
  const out: Record<string, Link> = {};
  if (!o) return out;
  for (const [name, raw] of Object.entries(o)) {
    const link = readLink(raw);
    if (link) out[name] = link;
  }
  return out;
}

/**
 * The statement details of a transaction in either shape: v4 groups the ids in `references`
 * (facts §5.6), the older shape has them at the top level; a return reason comes as a code or
 * as {code}. Read once at fetch time so an export never looks at the raw JSON again.
 */
export function readStatementDetails(tx: Json): {
  accountServicerReference?: string;
  instructionId?: string;
  additionalInformation?: string;
  bankTransactionCode?: string;
  proprietaryBankTransactionCode?: string;
  returnReason?: string;
} {
  const references = asObject(tx.references);
  const reason = tx.returnReason ?? tx.returnReasonCode;
  const out = {
    accountServicerReference: asString(references?.accountServicerReference) ?? asString(tx.accountServicerReference),
    instructionId: asString(references?.instructionId) ?? asString(tx.instructionId),
    additionalInformation: asString(tx.additionalInformation),
    bankTransactionCode: asString(tx.bankTransactionCode) ?? asString(tx.proprietaryBankTransactionCode),
    // The bank's own code beside an ISO one (alone, it is the code above): BkTxCd/Prtry.
    proprietaryBankTransactionCode:
      asString(tx.bankTransactionCode) === undefined ? undefined : asString(tx.proprietaryBankTransactionCode),
    returnReason: asString(reason) ?? asString(asObject(reason)?.code),
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/**
 * The structured creditor reference of a transaction: the first entry of
 * `structuredRemittanceInformationArray` ({reference, referenceType}) or the bare string
 * `structuredRemittanceInformation` (facts §5.6 lists both). Whether its check digits hold is
 * the domain's question (parseCreditorReference), not the client's.
 */
export function readCreditorReference(source: Json): CreditorReferenceField | undefined {
  for (const item of asArray(source.structuredRemittanceInformationArray)) {
    const o = asObject(item);
    const reference = o ? asString(o.reference)?.trim() : asString(item)?.trim();
    if (reference) return { reference, type: (o && asString(o.referenceType)?.trim()) || 'SCOR' };
  }
  const single = source.structuredRemittanceInformation;
  const o = asObject(single);
  const reference = (o ? asString(o.reference) : asString(single))?.trim();
  if (!reference) return undefined;
  return { reference, type: (o && asString(o.referenceType)?.trim()) || 'SCOR' };
}
