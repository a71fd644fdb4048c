// Things with a clock on them that finance must act on: signing baskets waiting for approvers
// (their approval link is single use and expires within 7 days) and bank consents near their end.
import { addDays, daysBetween, type LocalDate } from '../local-date.js';
import { formatAmount } from '../money.js';
import { dateFigure, instantFigure, moneyFigure, recorded } from '../recorded-text.js';
import { findingOf, type Finding } from './findings.js';
import type { ConsentState, PendingApproval } from './inputs.js';

export function approvalFindings(approvals: readonly PendingApproval[], now: Date): Finding[] {
  return approvals.map((approval) => {
    const totals = approval.totals.map((m) => `${formatAmount(m)} ${m.currency}`).join(', ') || 'no amount';
    // The amounts as figures (each as the reader's language writes money), or the words.
    const totalsSaid = totals === 'no amount' ? recorded('findingText.noAmount') : moneyFigure(approval.totals);
    const basket = approval.basketId;
    const base = {
      company: approval.company,
      paymentIds: [],
      bulkId: approval.bulkIds.join(' '),
      amount: approval.totals.length === 1 ? approval.totals[0] : undefined,
      reference: approval.basketId,
      due: approval.linkExpiresAt?.toISOString(),
    };
    if (approval.linkExpiresAt === undefined) {
      return findingOf('approval_waiting', {
        ...base,
        message: `Signing basket ${approval.basketId} (${totals}) waits for approval; no approval link was issued yet.`,
        said: recorded('findingText.approvalNoLink', { basket, totals: totalsSaid }),
      });
    }
    const expiresAt = approval.linkExpiresAt.toISOString();
    if (approval.linkExpiresAt.getTime() <= now.getTime()) {
      return findingOf('approval_link_expired', {
        ...base,
        message: `The approval link of signing basket ${approval.basketId} (${totals}) expired at ${expiresAt}; the payments were not approved.`,
        said: recorded('findingText.approvalExpired', {
          basket,
          totals: totalsSaid,
          at: instantFigure(approval.linkExpiresAt),
        }),
      });
    }
    const hours = Math.floor((approval.linkExpiresAt.getTime() - now.getTime()) / 3_600_000);
    return findingOf('approval_waiting', {
      ...base,
      message: `Signing basket ${approval.basketId} (${totals}) waits for approval; its link expires at ${expiresAt} (in ${hours} h).`,
      said: recorded('findingText.approvalWaiting', {
        basket,
        totals: totalsSaid,
        at: instantFigure(approval.linkExpiresAt),
        hours: String(hours),
      }),
    });
  });
}

export function consentFindings(consents: readonly ConsentState[], today: LocalDate, warningDays: number): Finding[] {
  const findings: Finding[] = [];
  const horizon = addDays(today, warningDays);
  for (const consent of consents) {
    const base = {
      company: consent.company,
      paymentIds: [],
      reference: `${consent.bank} ${consent.consentId}`,
      due: consent.validUntil,
    };
    if (consent.validUntil < today) {
      findings.push(
        findingOf('consent_expired', {
          ...base,
          message: `The consent at ${consent.bank} expired on ${consent.validUntil}.`,
          said: recorded('findingText.consentExpired', { bank: consent.bank, date: dateFigure(consent.validUntil) }),
        }),
      );
    } else if (consent.validUntil <= horizon) {
      const days = daysBetween(today, consent.validUntil);
      findings.push(
        findingOf('consent_expiring', {
          ...base,
          message: `The consent at ${consent.bank} ends on ${consent.validUntil}, in ${days} day${days === 1 ? '' : 's'}.`,
          said: recorded('findingText.consentExpiring', {
            bank: consent.bank,
            date: dateFigure(consent.validUntil),
            days,
          }),
        }),
      );
    }
  }
  return findings;
}
