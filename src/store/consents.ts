// The consents table: for each company and bank, the consent settle knows, its status at the
// bank and when it expires. Every writer (onboarding, refresh, the regular read of the bank's
// consents, consent events) goes through `record` or `updateStatus`; a status the bank reported
// earlier than the stored one never overwrites it, so events arriving late change nothing.
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, isUniqueViolation, toDate, toInt, toOptStr, toStr, type Row } from './rows.js';

export const CONSENT_SOURCES = ['onboarding', 'refresh', 'bank', 'event'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface ConsentRecord {
  /** settle's company id (companies[].id). */
  company: string;
  bankId: string;
  consentId: string;
  /** The bank's status, canonical casing (Authorized, AwaitingApproval, Expired, Revoked, …). */
  status: string;
  expiresAt?: Date | undefined;
  /** When the bank reported this status (event time or read time). */
  statusAt: Date;
  source: ConsentSource;
}

export interface StoredConsent extends ConsentRecord {
  updatedAt: Date;
}

export class ConsentRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The consent of (company, bank): replaces the stored one unless that was reported later. */
  async record(c: ConsentRecord): Promise<'recorded' | 'stale'> {
    const now = instant(this.clock.now());
    const values = {
      consent_id: c.consentId,
      status: c.status,
      expires_at: c.expiresAt ? instant(c.expiresAt) : null,
      status_at: instant(c.statusAt),
      source: c.source,
      updated_at: now,
    };
    const key = { company: c.company, bank_id: c.bankId };
    for (let attempt = 0; attempt < 2; attempt++) {
      const updated = await this.db
        .knex('consents')
        .where(key)
        .andWhere('status_at', '<=', values.status_at)
        .update(values);
      if (updated > 0) return 'recorded';
      if (await this.db.knex('consents').where(key).first('company')) return 'stale';
      try {
        await this.db.knex('consents').insert({ ...key, ...values, created_at: now });
        return 'recorded';
      } catch (error) {
        // Another writer inserted the pair a moment ago: compare with its row.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    return 'stale';
  }

  /** A consent event: the new status of a known consent id. False when no row holds this consent. */
  async updateStatus(consentId: string, status: string, at: Date): Promise<boolean> {
    const updated = await this.db
      .knex('consents')
      .where({ consent_id: consentId })
      .andWhere('status_at', '<=', instant(at))
      .update({ status, status_at: instant(at), source: 'event', updated_at: instant(this.clock.now()) });
    if (updated > 0) return true;
    return (await this.db.knex('consents').where({ consent_id: consentId }).first('company')) !== undefined;
  }

  /** The consents of a company (all companies when absent), by company and bank. */
  async list(company?: string): Promise<StoredConsent[]> {
    const q = this.db.knex<Row>('consents').orderBy(['company', 'bank_id']);
    if (company !== undefined) void q.where({ company });
    return (await q).map(toConsent);
  }

  /** Usable consents (Authorized or Valid, not expired at `now`) by company (or of one): whether each is onboarded. */
  async liveByCompany(now: Date, company?: string): Promise<Map<string, number>> {
    const q = this.db.knex<Row>('consents');
    if (company !== undefined) void q.where({ company });
    const rows: Row[] = await q
      .whereIn('status', ['Authorized', 'Valid'])
      .andWhere((q) => void q.whereNull('expires_at').orWhere('expires_at', '>', instant(now)))
      .select('company')
      .count({ n: '*' })
      .groupBy('company');
    return new Map(rows.map((r) => [toStr(r.company), toInt(r.n)]));
  }

  /** Usable consents (Authorized or Valid) that expire at or before `horizon`: the alert's input. */
  async expiringBy(horizon: Date): Promise<StoredConsent[]> {
    const rows: Row[] = await this.db
      .knex<Row>('consents')
      .whereNotNull('expires_at')
      .where('expires_at', '<=', instant(horizon))
      .whereIn('status', ['Authorized', 'Valid'])
      .orderBy('consent_id');
    return rows.map(toConsent);
  }
}

export function toConsent(r: Row): StoredConsent {
  const expires = toOptStr(r.expires_at);
  return {
    company: toStr(r.company),
    bankId: toStr(r.bank_id),
    consentId: toStr(r.consent_id),
    status: toStr(r.status),
    ...(expires === undefined ? {} : { expiresAt: new Date(expires) }),
    statusAt: toDate(r.status_at),
    source: toStr(r.source) as ConsentSource,
    updatedAt: toDate(r.updated_at),
  };
}
