// The webhook reader (spec §6, facts §8): CloudEvents 1.0 deliveries in structured mode, binary
// mode (`ce-` headers) and batches (a JSON array, with or without the batch content type),
// validated by the `cloudevents` package and mapped to typed banking events. Unknown event
// types become `unknown` events, not errors: the bank adds types over time. A single bad event
// in a batch is reported in `rejected` and does not spoil the others.
import { CloudEvent, HTTP } from 'cloudevents';
import { BankError, BANK_ERROR_CODES } from './bank-error.js';
import {
  asArray,
  asObject,
  asString,
  canonicalConsentStatus,
  canonicalTransactionStatus,
  readLinks,
  readTppMessages,
  type Json,
} from './normalize.js';
import { readAccount, readBalance, readTransaction } from './readers.js';
import type { Account, Balance, ConsentStatus, Link, TppMessage, Transaction, TransactionStatus } from './types.js';

export interface EventMeta {
  id: string;
  type: string;
  source: string;
  time?: string;
  subject?: string;
  /** The `tid` extension. */
  tenantId?: string;
  /** Read from the subject path /subscriptions/…/resource-groups/…/providers/…/<kind>/<id>. */
  subscriptionId?: string;
  resourceGroupName?: string;
  resourceId?: string;
}

export type BankingEvent =
  | {
      kind: 'payment.status.updated' | 'bulk_payment.status.updated';
      meta: EventMeta;
      paymentId: string;
      endToEndIdentification?: string;
      transactionStatus: TransactionStatus;
      tppMessages: TppMessage[];
      links: Record<string, Link>;
      data: Json;
    }
  | {
      kind: 'payment.authorized';
      meta: EventMeta;
      paymentId: string;
      authorizationId?: string;
      userId?: string;
      requiredAuthorizations?: number;
      remainingAuthorizations?: number;
      links: Record<string, Link>;
      data: Json;
    }
  | { kind: 'consent.status.updated'; meta: EventMeta; consentId: string; status: ConsentStatus; data: Json }
  | {
      kind: 'account.created' | 'account.status.updated' | 'account.approval_settings.updated';
      meta: EventMeta;
      account: Account;
      data: Json;
    }
  | { kind: 'account.balance.updated'; meta: EventMeta; accountId: string; balances: Balance[]; data: Json }
  | { kind: 'account.transaction.received'; meta: EventMeta; transaction: Transaction; data: Json }
  | { kind: 'unknown'; meta: EventMeta; data: unknown };

export interface RejectedEvent {
  index: number;
  id?: string;
  message: string;
}

export interface EventDelivery {
  events: BankingEvent[];
  rejected: RejectedEvent[];
}

export type DeliveryHeaders = Record<string, string | string[] | undefined>;

/** Reads one webhook delivery. Throws ERR_BANK_EVENT_INVALID when the request holds no CloudEvent at all. */
export function readEventDelivery(headers: DeliveryHeaders, body: unknown): EventDelivery {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body);
  const contentType = flat['content-type'] ?? '';
  const binary = flat['ce-id'] !== undefined && !/^application\/cloudevents/i.test(contentType);
  const out: EventDelivery = { events: [], rejected: [] };
  if (binary) {
    try {
      requireAttributes((name) => flat[`ce-${name}`]);
      const event = HTTP.toEvent({ headers: flat, body: text }) as CloudEvent<unknown>;
      checkEvent(event);
      out.events.push(toBankingEvent(event, flat['ce-time'] !== undefined));
    } catch (error) {
      throw invalidDelivery(error);
    }
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidDelivery(new Error('the body is not JSON and there are no ce- headers'));
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (!Array.isArray(parsed) && !asObject(parsed)?.specversion)
    throw invalidDelivery(new Error('no specversion: not a CloudEvent'));
  items.forEach((item, index) => {
    try {
      const o = asObject(item);
      if (!o) throw new Error('an event must be a JSON object');
      requireAttributes((name) => asString(o[name]));
      const event = new CloudEvent(o, true);
      checkEvent(event);
      out.events.push(toBankingEvent(event, o.time !== undefined));
    } catch (error) {
      const rejected: RejectedEvent = { index, message: messageOf(error) };
      const id = asString(asObject(item)?.id);
      if (id) rejected.id = id;
      out.rejected.push(rejected);
    }
  });
  if (!Array.isArray(parsed) && out.rejected.length)
    throw invalidDelivery(new Error(out.rejected[0]?.message ?? 'invalid event'));
  return out;
}

// The library fills in a missing id (a new UUID) and time (now); on a received event those
// would be inventions, so the required attributes are checked on the wire form first.
function requireAttributes(get: (name: string) => string | undefined): void {
  for (const name of ['specversion', 'id', 'source', 'type'])
    if (!get(name)) throw new Error(`required attribute ${name} is missing`);
}

function checkEvent(event: CloudEvent<unknown>): void {
  event.validate();
  if (event.specversion !== '1.0') throw new Error(`specversion ${String(event.specversion)} is not 1.0`);
  for (const name of ['id', 'source', 'type'] as const) if (!event[name]) throw new Error(`${name} is missing`);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const errors = (error as { errors?: unknown }).errors;
    const extra = Array.isArray(errors) && errors.length ? `: ${JSON.stringify(errors).slice(0, 200)}` : '';
    return error.message + extra;
  }
  return String(error);
}

function invalidDelivery(error: unknown): BankError {
  return new BankError(
    BANK_ERROR_CODES.eventInvalid,
    `the webhook delivery is not a valid CloudEvents 1.0 message: ${messageOf(error)}`,
    {
      status: 400,
    },
  );
}

function metaOf(event: CloudEvent<unknown>, hasTime: boolean): EventMeta {
  const meta: EventMeta = { id: event.id, type: event.type, source: event.source };
  if (hasTime && event.time) meta.time = event.time;
  if (event.subject) {
    meta.subject = event.subject;
    const m = /^\/subscriptions\/([^/]+)(?:\/resource-groups\/([^/]+))?(?:\/providers\/[^/]+\/[^/]+\/([^/]+))?/.exec(
      event.subject,
    );
    if (m?.[1]) meta.subscriptionId = m[1];
    if (m?.[2]) meta.resourceGroupName = m[2];
    if (m?.[3]) meta.resourceId = m[3];
  }
  const tid = (event as unknown as Record<string, unknown>).tid;
  if (typeof tid === 'string') meta.tenantId = tid;
  return meta;
}

function dataOf(event: CloudEvent<unknown>): Json {
  const data: unknown = typeof event.data === 'string' ? safeJson(event.data) : event.data;
  const o = asObject(data);
  if (!o) throw new Error(`event ${event.id} (${event.type}) has no JSON object as data`);
  return o;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function need(o: Json, name: string, event: CloudEvent<unknown>): string {
  const v = asString(o[name]);
  if (!v) throw new Error(`event ${event.id} (${event.type}) has no ${name}`);
  return v;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Maps one validated CloudEvent to the typed banking event for its type. */
function toBankingEvent(event: CloudEvent<unknown>, hasTime = true): BankingEvent {
  const meta = metaOf(event, hasTime);
  const type = event.type.replace(/^banking\./, '');
  switch (type) {
    case 'payment.status.updated':
    case 'bulk_payment.status.updated': {
      const data = dataOf(event);
      const out: BankingEvent = {
        kind: type,
        meta,
        paymentId: need(data, 'paymentId', event),
        transactionStatus: canonicalTransactionStatus(need(data, 'transactionStatus', event)),
        tppMessages: readTppMessages(data),
        links: readLinks(data._links),
        data,
      };
      const e2e = asString(data.endToEndIdentification);
      if (e2e) out.endToEndIdentification = e2e;
      return out;
    }
    case 'payment.authorized': {
      const data = dataOf(event);
      const out: BankingEvent = {
        kind: type,
        meta,
        paymentId: need(data, 'paymentId', event),
        links: readLinks(data._links),
        data,
      };
      const authorizationId = asString(data.authorizationId);
      const userId = asString(data.userId);
      const required = num(data.requiredAuthorizations);
      const remaining = num(data.remainingAuthorizations);
      if (authorizationId) out.authorizationId = authorizationId;
      if (userId) out.userId = userId;
      if (required !== undefined) out.requiredAuthorizations = required;
      if (remaining !== undefined) out.remainingAuthorizations = remaining;
      return out;
    }
    case 'consent.status.updated': {
      const data = dataOf(event);
      return {
        kind: type,
        meta,
        consentId: need(data, 'consentId', event),
        status: canonicalConsentStatus(need(data, 'status', event)),
        data,
      };
    }
    case 'account.created':
    case 'account.status.updated':
    case 'account.approval_settings.updated': {
      const data = dataOf(event);
      return { kind: type, meta, account: readAccount(data), data };
    }
    case 'account.balance.updated': {
      const data = dataOf(event);
      return {
        kind: type,
        meta,
        accountId: need(data, 'id', event),
        balances: asArray(data.balances).flatMap((b) => readBalance(b) ?? []),
        data,
      };
    }
    case 'account.transaction.received': {
      const data = dataOf(event);
      return { kind: type, meta, transaction: readTransaction(data), data };
    }
    default:
      return { kind: 'unknown', meta, data: event.data };
  }
}
