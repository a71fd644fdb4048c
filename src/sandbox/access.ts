// Who is calling and what they may see: Bearer tokens (spec §5) and the data-access context
// of spec §4.2 (Subscription-Id + Resource-Group-Name, Scopes, or Consent-ID).
import type { FastifyRequest } from 'fastify';
import type { Account, Client } from './model.js';
import { badRequest, forbidden, notFound, unauthorized } from './problems.js';
import type { Sandbox } from './sandbox.js';

const NAME = /^[A-Za-z0-9_-]+$/;

export function authenticate(sb: Sandbox, req: FastifyRequest): Client {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!m?.[1]) throw unauthorized('An Authorization: Bearer token is required.');
  const record = sb.state.tokens.get(m[1]);
  if (!record) throw unauthorized('The bearer token is not valid.');
  if (record.expiresAt <= sb.clock.now().getTime()) {
    sb.state.tokens.delete(m[1]);
    throw unauthorized('The bearer token has expired.');
  }
  const client = sb.state.clients.get(record.clientId);
  if (!client) throw unauthorized('The bearer token is not valid.');
  // The operations require the "api" scope (spec §5.6); a token issued for other scopes only is refused.
  if (!record.scopes.includes('api')) throw forbidden('The token lacks the scope "api".');
  return client;
}

/** What the request's context headers allow: subscription, optional resource group, optional bank. */
export interface Scope {
  subscriptionId: string;
  resourceGroupName: string | null;
  bankId: string | null;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * The scopes named by the request headers, or null when none is given. Headers naming a
 * subscription the client has no grant on give 403; malformed headers give 400.
 */
export function requestScopes(sb: Sandbox, req: FastifyRequest, client: Client): Scope[] | null {
  const channel = header(req, 'channel-type');
  if (channel !== undefined && !/^(unspecified|openbanking|psd2)$/i.test(channel)) {
    throw badRequest('Channel-Type must be unspecified, openBanking or psd2.');
  }
  const subscriptionId = header(req, 'subscription-id');
  const resourceGroup = header(req, 'resource-group-name');
  const scopes = header(req, 'scopes');
  const consentId = header(req, 'consent-id');
  if (subscriptionId !== undefined || resourceGroup !== undefined) {
    if (scopes !== undefined) throw badRequest('Scopes cannot be combined with Subscription-Id.');
    if (subscriptionId === undefined || resourceGroup === undefined) {
      throw badRequest('Subscription-Id and Resource-Group-Name must be sent together.');
    }
    if (!NAME.test(subscriptionId) || !NAME.test(resourceGroup)) {
      throw badRequest('Subscription-Id and Resource-Group-Name must match ^[A-Za-z0-9_-]+$.');
    }
    if (channel !== undefined && channel.toLowerCase() !== 'openbanking') {
      throw badRequest('Subscription-Id and Resource-Group-Name are only for Channel-Type openBanking.');
    }
    if (!client.subscriptions.includes(subscriptionId)) throw forbidden(`No access to subscription ${subscriptionId}.`);
    return [{ subscriptionId, resourceGroupName: resourceGroup, bankId: null }];
  }
  if (scopes !== undefined) {
    const out: Scope[] = [];
    for (const raw of scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (raw === '/') {
        out.push(...client.subscriptions.map((s) => ({ subscriptionId: s, resourceGroupName: null, bankId: null })));
        continue;
      }
      const m = /^\/subscriptions\/([A-Za-z0-9_-]+)(?:\/resource-groups\/([A-Za-z0-9_-]+))?\/?$/.exec(raw);
      if (!m?.[1]) throw badRequest(`Scope "${raw}" is not a resource scope.`);
      if (!client.subscriptions.includes(m[1])) throw forbidden(`No access to subscription ${m[1]}.`);
      out.push({ subscriptionId: m[1], resourceGroupName: m[2] ?? null, bankId: null });
    }
    return out;
  }
  if (consentId !== undefined) {
    const consent = sb.state.consents.get(consentId);
    if (!consent) throw unauthorized('The consent is not known.');
    if (!client.subscriptions.includes(consent.subscriptionId)) throw forbidden('No access to this consent.');
    if (consent.status !== 'Authorized')
      throw unauthorized(`The consent is no longer authorized (status ${consent.status}).`);
    return [
      { subscriptionId: consent.subscriptionId, resourceGroupName: consent.resourceGroupName, bankId: consent.bankId },
    ];
  }
  return null;
}

export function inScope(
  scopes: readonly Scope[],
  a: { subscriptionId: string; resourceGroupName: string; bankId?: string },
): boolean {
  return scopes.some(
    (s) =>
      s.subscriptionId === a.subscriptionId &&
      (s.resourceGroupName === null || s.resourceGroupName === a.resourceGroupName) &&
      (s.bankId === null || a.bankId === undefined || s.bankId === a.bankId),
  );
}

/**
 * One account by id for the account operations: unknown → 404, another subscription → 403,
 * context headers missing or not matching → 404 "Account not found" (spec §7).
 */
export function accessibleAccount(sb: Sandbox, req: FastifyRequest, client: Client, id: string): Account {
  const account = sb.state.accounts.get(id);
  if (!account || account.status === 'deleted') throw notFound('Account not found', `No account ${id}.`);
  if (!client.subscriptions.includes(account.subscriptionId))
    throw forbidden('The account belongs to a subscription the client has no access to.');
  const scopes = requestScopes(sb, req, client);
  if (scopes === null)
    throw notFound('Account not found', 'Send Subscription-Id and Resource-Group-Name (or Scopes, or Consent-ID).');
  if (!inScope(scopes, account))
    throw notFound('Account not found', 'The account is not in the resource group named by the request headers.');
  return account;
}
