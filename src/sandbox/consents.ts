// Consents (spec §2.2, §3.1, §4.5): one active consent per company (resource group) per bank;
// bankId exactly as listed; the headless test bank completes Created → Started → Authorized on
// the clock; other consents wait at AwaitingApproval until their SCA link is completed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Consent, ConsentStatus } from './model.js';
import { paginate } from './paging.js';
import { Problem, badRequest, conflict, forbidden, notFound } from './problems.js';
import { one, type Query } from './query.js';
import { caller } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { CONSENT_STEP_MS } from './scheduler.js';
import { issueScaLink, scaHref } from './sca.js';
import { consentView } from './views.js';

const STATUSES: ConsentStatus[] = [
  'Created',
  'Started',
  'Authorized',
  'AwaitingApproval',
  'Revoked',
  'Expired',
  'Failure',
];
const INACTIVE = new Set<ConsentStatus>(['Revoked', 'Expired', 'Failure']);
const NAME = /^[A-Za-z0-9_-]+$/;

function properties(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest('properties must be an object of strings.');
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (typeof val !== 'string') throw badRequest(`properties.${k} must be a string (e.g. "true").`);
    out[k] = val;
  }
  return out;
}

function redirectSettings(v: unknown): { success: string | null; error: string | null } {
  if (v === undefined || v === null) return { success: null, error: null };
  if (typeof v !== 'object') throw badRequest('redirectSettings must be an object {success, error}.');
  const o = v as Record<string, unknown>;
  const url = (x: unknown, name: string): string | null => {
    if (x === undefined || x === null) return null;
    if (typeof x !== 'string' || !/^https?:\/\//.test(x))
      throw badRequest(`redirectSettings.${name} must be an http(s) URL.`);
    return x;
  };
  return { success: url(o.success, 'success'), error: url(o.error, 'error') };
}

export function registerConsents(app: FastifyInstance, sb: Sandbox): void {
  const own = (req: FastifyRequest<{ Params: { id: string } }>): Consent => {
    const consent = sb.state.consents.get(req.params.id);
    if (!consent) throw notFound('Consent not found', `No consent ${req.params.id}.`);
    if (!caller(req).subscriptions.includes(consent.subscriptionId))
      throw forbidden('The consent belongs to a subscription the client has no access to.');
    return consent;
  };
  const created = (c: Consent, redirectUrl: string | null): Record<string, unknown> => ({
    ...consentView(c),
    redirectUrl,
    state: c.state,
  });

  app.post('/api/consents', (req, reply) => {
    const client = caller(req);
    const body = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw badRequest('The body must be a JSON object.');
    const b = body as Record<string, unknown>;
    if (typeof b.bankId !== 'string' || b.bankId === '')
      throw badRequest('bankId is required; take it from GET /banks.');
    const bank = sb.state.banks.get(b.bankId);
    if (!bank)
      throw new Problem(
        400,
        'bad-request',
        'Bank not found',
        `No bank "${b.bankId}"; bankId is case-sensitive and must be taken from GET /banks.`,
      );
    const channelText = typeof b.channelType === 'string' ? b.channelType : 'openBanking';
    const channel = bank.channels.find((c) => c.toLowerCase() === channelText.toLowerCase());
    if (!channel)
      throw badRequest(`channelType ${channelText} is not offered by ${bank.bankId} (${bank.channels.join(', ')}).`);
    if (typeof b.subscriptionId !== 'string' || !NAME.test(b.subscriptionId))
      throw badRequest('subscriptionId is required.');
    if (!client.subscriptions.includes(b.subscriptionId))
      throw forbidden(
        `The client may not create consents in subscription ${b.subscriptionId} (banking.consents.create).`,
      );
    if (typeof b.resourceGroupName !== 'string' || !NAME.test(b.resourceGroupName))
      throw badRequest('resourceGroupName (the organisation number) is required.');
    const props = properties(b.properties);
    const missing = bank.propertyRequirements.filter((r) => r.required && !(r.key in props)).map((r) => r.key);
    if (missing.length > 0) throw badRequest(`Bank ${bank.bankId} requires properties: ${missing.join(', ')}.`);
    if (b.state !== undefined && b.state !== null && typeof b.state !== 'string')
      throw badRequest('state must be a string.');
    const settings = redirectSettings(b.redirectSettings);
    const rg = b.resourceGroupName;
    const subscriptionId = b.subscriptionId;
    const active = [...sb.state.consents.values()].find(
      (c) =>
        c.subscriptionId === subscriptionId &&
        c.resourceGroupName === rg &&
        c.bankId === bank.bankId &&
        !INACTIVE.has(c.status),
    );
    if (active)
      throw conflict(
        `Consent ${active.consentId} is already active for ${rg} at ${bank.bankId}; only one active consent per company per bank.`,
      );
    const headless = props.isHeadless === 'true';
    const now = sb.clock.now().getTime();
    const consent: Consent = {
      consentId: randomUUID(),
      subscriptionId,
      resourceGroupName: rg,
      resourceGroupDisplayName: typeof b.resourceGroupDisplayName === 'string' ? b.resourceGroupDisplayName : rg,
      bankId: bank.bankId,
      channelType: channel,
      properties: props,
      status: bank.isTestBank && headless ? 'Created' : 'AwaitingApproval',
      state: typeof b.state === 'string' ? b.state : null,
      createdAt: now,
      nextStepAt: bank.isTestBank && headless ? now + CONSENT_STEP_MS.toStarted : null,
      redirectSuccess: settings.success,
      redirectError: settings.error,
      expiresAtUtc: channel === 'psd2' ? new Date(now + 90 * 86_400_000).toISOString() : null,
    };
    sb.state.consents.set(consent.consentId, consent);
    // Headless: no hosted UI; the SCA link comes from refresh (spec §2.2).
    const link = headless ? null : issueScaLink(sb, 'consent', consent.consentId, null, settings.success);
    sb.emitConsent(consent);
    return reply.code(201).send(created(consent, link ? scaHref(sb, link) : null));
  });

  app.get<{ Querystring: Query }>('/api/consents', (req) => {
    const client = caller(req);
    const statusText = one(req.query, 'status');
    const status =
      statusText === undefined ? undefined : STATUSES.find((s) => s.toLowerCase() === statusText.toLowerCase());
    if (statusText !== undefined && status === undefined)
      throw badRequest(`status must be one of ${STATUSES.join(', ')}.`);
    const consents = [...sb.state.consents.values()].filter(
      (c) => client.subscriptions.includes(c.subscriptionId) && (status === undefined || c.status === status),
    );
    const page = paginate(sb, consents, '/consents', req.query);
    return { consents: page.items.map(consentView), _links: page.links };
  });

  app.get('/api/consents/:id', (req: FastifyRequest<{ Params: { id: string } }>) => consentView(own(req)));

  app.put('/api/consents/:id/refresh', (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const consent = own(req);
    if (INACTIVE.has(consent.status)) throw conflict(`The consent is ${consent.status}; create a new one.`);
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.');
    Object.assign(consent.properties, properties(b.properties));
    const settings = redirectSettings(b.redirectSettings);
    if (settings.success) consent.redirectSuccess = settings.success;
    if (settings.error) consent.redirectError = settings.error;
    if (typeof b.state === 'string') consent.state = b.state;
    const link = issueScaLink(sb, 'consent', consent.consentId, null, consent.redirectSuccess);
    return reply.code(201).send(created(consent, scaHref(sb, link)));
  });

  app.delete('/api/consents/:id', (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const consent = own(req);
    consent.status = 'Revoked';
    consent.nextStepAt = null;
    for (const l of sb.state.scaLinks.values()) if (l.targetId === consent.consentId) l.used = true;
    sb.emitConsent(consent);
    return reply.code(200).send();
  });
}
