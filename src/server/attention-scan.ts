// What needs a person, read from the durable state after each run: bulks whose outcome is
// unknown, signing baskets waiting for approval or whose SCA link expires soon, consents near
// expiry, statement days with a gap or mismatch. Deriving findings from the database (rather
// than from what one run happened to see) means an alert is raised even when the step that
// noticed the problem ran elsewhere or crashed; the keys make each one go out once.
import type { Clock } from '../domain/clock.js';
import type { Finding } from '../notify/index.js';
import { ConsentRepository } from '../store/consents.js';
import type { Database } from '../store/database.js';
import { toInt, toOptStr, toStr, type Row } from '../store/rows.js';

export interface AttentionScanOptions {
  db: Database;
  clock: Clock;
  /** alerts.warnBefore: how long before expiry consents and links are reported. */
  warnBeforeMs: number;
}

export async function scanForAttention({ db, clock, warnBeforeMs }: AttentionScanOptions): Promise<Finding[]> {
  const now = clock.now();
  const horizon = new Date(now.getTime() + warnBeforeMs).toISOString();
  const findings: Finding[] = [];

  const unknown: Row[] = await db
    .knex<Row>('bulks')
    .select('id', 'company', 'debtor_iban', 'execution_date', 'line_count')
    .where({ state: 'unknown' })
    .orderBy('id');
  for (const r of unknown) {
    const id = toStr(r.id);
    const company = toStr(r.company);
    const account = maskAccount(toStr(r.debtor_iban));
    findings.push({
      kind: 'payment-unknown',
      key: `payment-unknown:${id}`,
      title: `${company}: outcome of ${toInt(r.line_count)} payment(s) from ${account} for ${toStr(r.execution_date)} is unknown`,
      text: `settle sent bulk ${id} (${toInt(r.line_count)} payment(s) from account ${account}, execution date ${toStr(r.execution_date)}) and never got an answer. It is not re-sent automatically: the money may or may not have moved. Follow docs/runbook.md, "A payment is unknown".`,
      company,
      data: { bulkId: id, executionDate: toStr(r.execution_date), lines: toInt(r.line_count) },
    });
  }

  const baskets: Row[] = await db
    .knex<Row>('baskets')
    .select('id', 'company', 'state', 'sca_link_expires_at')
    .whereIn('state', ['created', 'link_issued'])
    .orderBy('id');
  for (const r of baskets) {
    const id = toStr(r.id);
    const company = toStr(r.company);
    const expires = toOptStr(r.sca_link_expires_at);
    findings.push({
      kind: 'approval-waiting',
      key: `approval-waiting:${id}`,
      title: `${company}: payments wait for approval (signing basket ${id})`,
      text: `Payments of ${company} wait in signing basket ${id} for an approver to complete the SCA link${expires ? ` (valid until ${expires})` : ''}. Until then the bank does not execute them.`,
      company,
      data: { basketId: id, ...(expires ? { linkExpiresAt: expires } : {}) },
    });
    if (toStr(r.state) === 'link_issued' && expires !== undefined && expires <= horizon) {
      findings.push({
        kind: 'link-expiring',
        // The expiry is part of the key: a re-issued link is a new finding.
        key: `link-expiring:${id}:${expires}`,
        title: `${company}: approval link of basket ${id} expires ${expires.slice(0, 10)}`,
        text: `The SCA link of signing basket ${id} expires at ${expires}. Ask the approvers to complete it, or follow docs/runbook.md, "A consent or an approval (SCA) link expires".`,
        company,
        data: { basketId: id, expiresAt: expires },
      });
    }
  }

  for (const c of await new ConsentRepository(db, clock).expiringBy(new Date(horizon))) {
    const expires = c.expiresAt?.toISOString() ?? '';
    findings.push({
      kind: 'consent-expiring',
      key: `consent-expiring:${c.consentId}:${expires}`,
      title: `${c.company}: consent at ${c.bankId} expires ${expires.slice(0, 10)}`,
      text: `The consent ${c.consentId} of ${c.company} at ${c.bankId} expires at ${expires}. Renew it with \`settle consents refresh ${c.consentId}\` (docs/runbook.md).`,
      company: c.company,
      data: { consentId: c.consentId, bankId: c.bankId, expiresAt: expires },
    });
  }

  const days = (await db
    .knex<Row>('statement_days as d')
    .leftJoin('accounts as a', 'a.id', 'd.account_id')
    .select('d.account_id', 'd.day', 'd.continuity', 'd.finding', 'a.company', 'a.iban')
    .whereIn('d.continuity', ['gap', 'mismatch'])
    .orderBy(['d.account_id', 'd.day'])) as Row[];
  for (const r of days) {
    const accountId = toStr(r.account_id);
    const day = toStr(r.day);
    const company = toOptStr(r.company);
    const account = maskAccount(toOptStr(r.iban) ?? accountId);
    findings.push({
      kind: 'statement-gap',
      key: `statement-gap:${accountId}:${day}`,
      title: `${company ? `${company}: ` : ''}statement ${toStr(r.continuity)} on ${account} for ${day}`,
      text: `The statement of account ${account} for ${day} does not continue the previous day (${toStr(r.continuity)})${toOptStr(r.finding) ? `: ${toOptStr(r.finding)}` : ''}. Fetch statements again; if it stays, compare with the bank's statement before the ledger import.`,
      ...(company ? { company } : {}),
      data: { accountId, day, continuity: toStr(r.continuity) },
    });
  }
  return findings;
}

/** Account numbers are not written in full into mails: the last four characters are enough to recognise one. */
function maskAccount(account: string): string {
  return account.length > 4 ? `…${account.slice(-4)}` : account;
}
