// What needs a person, read from the durable state after each run: bulks whose outcome is
// unknown, signing baskets waiting for approval or whose approval link expires soon, consents near
// expiry, statement days with a gap or mismatch. Deriving them from the database (rather
// than from what one run happened to see) means an alert is raised even when the step that
// noticed the problem ran elsewhere or crashed; the keys make each one go out once. Each
// alert subject's title and text are written in English and as catalogue sentences (`words`), so the
// mail reads in the company's language (docs/i18n.md).
import type { Clock } from '../domain/clock.js';
import { dateFigure, instantFigure, recorded } from '../domain/recorded-text.js';
import type { AlertSubject } from '../alerts/index.js';
import type { AttentionRepository } from '../store/index.js';

export interface AttentionScanOptions {
  attention: AttentionRepository;
  clock: Clock;
  /** alerts.warnBefore: how long before expiry consents are reported. */
  warnBeforeMs: number;
  /** alerts.linkWarnBefore: how long before expiry approval links are reported. */
  linkWarnBeforeMs: number;
  /** The time zone a company's dates and times are written in (default UTC). */
  timeZoneOf?: (company: string) => string;
}

export async function scanForAttention(options: AttentionScanOptions): Promise<AlertSubject[]> {
  const { attention, clock } = options;
  const now = clock.now();
  const horizon = new Date(now.getTime() + options.warnBeforeMs).toISOString();
  const linkHorizon = new Date(now.getTime() + options.linkWarnBeforeMs).toISOString();
  const findings: AlertSubject[] = [];
  const instant = (company: string, at: string) => instantFigure(new Date(at), options.timeZoneOf?.(company) ?? 'UTC');

  for (const r of await attention.unknownBulks()) {
    const { id, company, lineCount, executionDate } = r;
    const account = maskAccount(r.debtorIban);
    const facts = { company, bulk: id, count: lineCount, account, date: dateFigure(executionDate) };
    findings.push({
      kind: 'payment-unknown',
      key: `payment-unknown:${id}`,
      title: `${company}: outcome of ${lineCount} payment(s) from ${account} for ${executionDate} is unknown`,
      text: `settle sent bulk ${id} (${lineCount} payment(s) from account ${account}, execution date ${executionDate}) and never got an answer. It is not re-sent automatically: the money may or may not have moved. Follow docs/runbook.md, "A payment is unknown".`,
      company,
      words: {
        title: recorded('alerts.unknown.title', facts),
        text: recorded('alerts.unknown.text', facts),
      },
      data: { bulkId: id, executionDate, lines: lineCount },
    });
  }

  for (const r of await attention.waitingBaskets()) {
    const { id, company } = r;
    const expires = r.approvalLinkExpiresAt;
    findings.push({
      kind: 'approval-waiting',
      key: `approval-waiting:${id}`,
      title: `${company}: payments wait for approval (signing basket ${id})`,
      text: `Payments of ${company} wait in signing basket ${id} for an approver to complete the approval link${expires ? ` (valid until ${expires})` : ''}. Until then the bank does not execute them.`,
      company,
      words: {
        title: recorded('alerts.approvalWaiting.title', { company, basket: id }),
        text: expires
          ? recorded('alerts.approvalWaiting.textUntil', { company, basket: id, expires: instant(company, expires) })
          : recorded('alerts.approvalWaiting.text', { company, basket: id }),
      },
      data: { basketId: id, ...(expires ? { linkExpiresAt: expires } : {}) },
    });
    if (r.state === 'link_issued' && expires !== undefined && expires <= linkHorizon) {
      findings.push({
        kind: 'link-expiring',
        // The expiry is part of the key: a re-issued link is a new alert subject.
        key: `link-expiring:${id}:${expires}`,
        title: `${company}: approval link of basket ${id} expires ${expires.slice(0, 10)}`,
        text: `The approval link of signing basket ${id} expires at ${expires}. Ask the approvers to complete it, or follow docs/runbook.md, "A consent or an approval link expires".`,
        company,
        words: {
          title: recorded('alerts.linkExpiring.title', { company, basket: id, expires: instant(company, expires) }),
          text: recorded('alerts.linkExpiring.text', { basket: id, expires: instant(company, expires) }),
        },
        data: { basketId: id, expiresAt: expires },
      });
    }
  }

  for (const r of await attention.consentsExpiringBy(horizon)) {
    if (!/^(authori[sz]ed|valid)$/i.test(r.status)) continue; // expired or revoked ones are reported by the bank errors
    const { consentId, company, bankId, expiresAt: expires } = r;
    findings.push({
      kind: 'consent-expiring',
      key: `consent-expiring:${consentId}:${expires}`,
      title: `${company}: consent at ${bankId} expires ${expires.slice(0, 10)}`,
      text: `The consent ${consentId} of ${company} at ${bankId} expires at ${expires}. Renew it with \`settle consents refresh ${consentId}\` (docs/runbook.md).`,
      company,
      words: {
        title: recorded('alerts.consentExpiring.title', { company, bank: bankId, expires: instant(company, expires) }),
        text: recorded('alerts.consentExpiring.text', {
          company,
          consent: consentId,
          bank: bankId,
          expires: instant(company, expires),
        }),
      },
      data: { consentId, bankId, expiresAt: expires },
    });
  }

  for (const r of await attention.brokenStatementDays()) {
    const { accountId, day, continuity, company, finding } = r;
    const account = maskAccount(r.iban ?? accountId);
    findings.push({
      kind: 'statement-gap',
      key: `statement-gap:${accountId}:${day}`,
      title: `${company ? `${company}: ` : ''}statement ${continuity} on ${account} for ${day}`,
      text: `The statement of account ${account} for ${day} does not continue the previous day (${continuity})${finding ? `: ${finding}` : ''}. Fetch statements again; if it stays, compare with the bank's statement before the ledger import.`,
      ...(company ? { company } : {}),
      words: {
        title: recorded('alerts.statementGap.title', {
          company: company ?? 'none',
          continuity,
          account,
          day: dateFigure(day),
        }),
        text: recorded('alerts.statementGap.text', {
          account,
          day: dateFigure(day),
          continuity,
          detail: finding || 'none',
        }),
      },
      data: { accountId, day, continuity },
    });
  }
  return findings;
}

/** Account numbers are not written in full into mails: the last four characters are enough to recognise one. */
function maskAccount(account: string): string {
  return account.length > 4 ? `…${account.slice(-4)}` : account;
}
