// SCA links: issued by consent refresh/create and basket authorisation, single use, expiring
// after 7 days of sandbox time (spec §3.4). Opening one (GET /__sandbox/sca/{code}, or the
// control API) completes or fails the authentication exactly once.
import { randomBytes } from 'node:crypto';
import type { ScaLink } from './model.js';
import { Problem, notFound } from './problems.js';
import type { Sandbox } from './sandbox.js';
import { provisionConsentAccounts } from './consent-accounts.js';
import { CONSENT_STEP_MS } from './scheduler.js';

export const SCA_LINK_LIFETIME_MS = 7 * 86_400_000;

export function issueScaLink(
  sb: Sandbox,
  kind: ScaLink['kind'],
  targetId: string,
  authorizationId: string | null,
  redirectUri: string | null,
): ScaLink {
  // A new link for the same target invalidates the earlier unused one.
  for (const l of sb.state.scaLinks.values())
    if (l.targetId === targetId && l.authorizationId === authorizationId && !l.used) l.used = true;
  const now = sb.clock.now().getTime();
  const link: ScaLink = {
    code: randomBytes(12).toString('base64url'),
    kind,
    targetId,
    authorizationId,
    createdAt: now,
    expiresAt: now + SCA_LINK_LIFETIME_MS,
    used: false,
    redirectUri,
  };
  sb.state.scaLinks.set(link.code, link);
  return link;
}

export function scaHref(sb: Sandbox, link: ScaLink): string {
  return `${sb.origin}/__sandbox/sca/${link.code}`;
}

export interface ScaOutcome {
  scaStatus: 'finalised' | 'failed';
  kind: ScaLink['kind'];
  targetId: string;
  redirect: string | null;
}

/** Completes (or fails) the authentication behind a link; a used or expired link is 410. */
export function completeSca(sb: Sandbox, code: string, succeed: boolean): ScaOutcome {
  const link = sb.state.scaLinks.get(code);
  if (!link) throw notFound('SCA link not found');
  const now = sb.clock.now().getTime();
  if (link.used)
    throw new Problem(410, 'sca-link-used', 'SCA link already used', 'The link is single use; request a new one.');
  if (now >= link.expiresAt)
    throw new Problem(410, 'sca-link-expired', 'SCA link expired', 'The link expired after 7 days; request a new one.');
  link.used = true;
  const scaStatus = succeed ? 'finalised' : 'failed';
  if (link.kind === 'consent') {
    const consent = sb.state.consents.get(link.targetId);
    if (consent && succeed) {
      if (consent.status === 'Authorized') {
        provisionConsentAccounts(sb, consent); // re-authorisation, e.g. after adding an account
      } else if (consent.status !== 'Revoked') {
        consent.status = 'Started';
        consent.nextStepAt = now + CONSENT_STEP_MS.toAuthorized;
        sb.emitConsent(consent);
      }
    }
  } else {
    const basket = sb.state.baskets.get(link.targetId);
    const auth = basket?.authorizations.find((a) => a.authorizationId === link.authorizationId);
    if (basket && auth) {
      auth.scaStatus = scaStatus;
      const done = basket.authorizations.filter((a) => a.scaStatus === 'finalised').length;
      if (succeed) {
        const remaining = Math.max(0, basket.requiredAuthorizations - done);
        for (const paymentId of basket.paymentIds) {
          const bulk = sb.state.bulks.get(paymentId);
          const account = bulk ? sb.state.accounts.get(bulk.accountId) : undefined;
          if (!bulk || !account) continue;
          sb.emit('banking.payment.authorized', account, {
            paymentId,
            authorizationId: auth.authorizationId,
            userId: `sandbox-approver-${done}`,
            requiredAuthorizations: basket.requiredAuthorizations,
            remainingAuthorizations: remaining,
            _links: { self: sb.link(`/bulk-payments/credit-transfer/${paymentId}`) },
          });
          if (remaining === 0 && bulk.releasedAt === null) bulk.releasedAt = now;
        }
        if (remaining === 0) basket.status = 'ACTC';
      }
    }
  }
  const redirect = link.redirectUri ? withQuery(link.redirectUri, 'scaStatus', succeed ? 'finalized' : 'failed') : null;
  return { scaStatus, kind: link.kind, targetId: link.targetId, redirect };
}

function withQuery(url: string, key: string, value: string): string {
  try {
    const u = new URL(url);
    u.searchParams.set(key, value);
    return u.toString();
  } catch {
    return url;
  }
}
