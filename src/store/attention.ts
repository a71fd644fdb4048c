// The durable state that needs a person, as the attention scan reads it after each run
// (src/server/attention-scan.ts turns these rows into findings), and the rows per state that
// /metrics shows. Read-only.
import type { Database } from './database.js';
import { toInt, toOptStr, toStr, type Row } from './rows.js';
import { countsByState, type CountedKind } from './state-counts.js';

export interface UnknownBulkRow {
  id: string;
  company: string;
  debtorIban: string;
  executionDate: string;
  lineCount: number;
}

export interface WaitingBasketRow {
  id: string;
  company: string;
  state: string;
  approvalLinkExpiresAt?: string;
}

export interface ExpiringConsentRow {
  consentId: string;
  company: string;
  bankId: string;
  status: string;
  expiresAt: string;
}

export interface BrokenDayRow {
  accountId: string;
  day: string;
  continuity: string;
  finding?: string;
  company?: string;
  iban?: string;
}

export type { CountedKind };

export class AttentionRepository {
  constructor(private readonly db: Database) {}

  async unknownBulks(): Promise<UnknownBulkRow[]> {
    const rows: Row[] = await this.db
      .knex<Row>('bulks')
      .select('id', 'company', 'debtor_iban', 'execution_date', 'line_count')
      .where({ state: 'unknown' })
      .orderBy('id');
    return rows.map((r) => ({
      id: toStr(r.id),
      company: toStr(r.company),
      debtorIban: toStr(r.debtor_iban),
      executionDate: toStr(r.execution_date),
      lineCount: toInt(r.line_count),
    }));
  }

  /** Signing baskets created at the bank and not yet authorised. */
  async waitingBaskets(): Promise<WaitingBasketRow[]> {
    const rows: Row[] = await this.db
      .knex<Row>('baskets')
      .select('id', 'company', 'state', 'sca_link_expires_at')
      .whereIn('state', ['created', 'link_issued'])
      .orderBy('id');
    return rows.map((r) => {
      const approvalLinkExpiresAt = toOptStr(r.sca_link_expires_at);
      return {
        id: toStr(r.id),
        company: toStr(r.company),
        state: toStr(r.state),
        ...(approvalLinkExpiresAt === undefined ? {} : { approvalLinkExpiresAt }),
      };
    });
  }

  /** Consents whose expiry is at or before `horizon` (an ISO instant). */
  async consentsExpiringBy(horizon: string): Promise<ExpiringConsentRow[]> {
    const rows: Row[] = await this.db
      .knex<Row>('consents')
      .select('consent_id', 'company', 'bank_id', 'status', 'expires_at')
      .whereNotNull('expires_at')
      .where('expires_at', '<=', horizon)
      .orderBy('consent_id');
    return rows.map((r) => ({
      consentId: toStr(r.consent_id),
      company: toStr(r.company),
      bankId: toStr(r.bank_id),
      status: toStr(r.status),
      expiresAt: toStr(r.expires_at),
    }));
  }

  /** Statement days with a gap or a mismatch, with their account's company and IBAN when known. */
  async brokenStatementDays(): Promise<BrokenDayRow[]> {
    const rows = (await this.db
      .knex<Row>('statement_days as d')
      .leftJoin('accounts as a', 'a.id', 'd.account_id')
      .select('d.account_id', 'd.day', 'd.continuity', 'd.finding', 'a.company', 'a.iban')
      .whereIn('d.continuity', ['gap', 'mismatch'])
      .orderBy(['d.account_id', 'd.day'])) as Row[];
    return rows.map((r) => {
      const finding = toOptStr(r.finding);
      const company = toOptStr(r.company);
      const iban = toOptStr(r.iban);
      return {
        accountId: toStr(r.account_id),
        day: toStr(r.day),
        continuity: toStr(r.continuity),
        ...(finding === undefined ? {} : { finding }),
        ...(company === undefined ? {} : { company }),
        ...(iban === undefined ? {} : { iban }),
      };
    });
  }

  /** How many rows of a kind are in each state: the counters kept with every change (src/store/state-counts.ts). */
  countByState(kind: CountedKind): Promise<Map<string, number>> {
    return countsByState(this.db.knex, kind);
  }
}
