// Read models of the console's Today page: what needs a person in one company, each list keyset
// paged in the database (src/store/keyset-paging.ts explains the cursor) on an index of
// migration 0420, so a morning's page costs a few index ranges whatever the install holds.
// The alerts' attention scan (src/store/attention.ts) still reads every company at once; the
// console never does. Nothing here writes.
import type { Knex } from 'knex';
import type { Database } from './database.js';
import { toStoredFile, type StoredFile } from './file-ledger.js';
import { toStoredFinding, type StoredFinding } from './findings.js';
import {
  afterKey,
  decodeCursor,
  encodeCursor,
  keysetPage,
  pageSize,
  type PageQuery,
  type Paged,
} from './keyset-paging.js';
import { throughIndex, toInt, toOptStr, toStr, type Row } from './rows.js';

export interface TodayBulk {
  id: string;
  fileId: string;
  debtorIban: string;
  executionDate: string;
  lineCount: number;
}

export interface TodayConsent {
  bankId: string;
  consentId: string;
  status: string;
  expiresAt: Date;
}

export interface TodayLink {
  basketId: string;
  bankBasketId?: string;
  expiresAt: Date;
  /** When the link was issued (its basket's latest move to link_issued), to read its expiry against its life. */
  issuedAt?: Date;
}

export interface TodayGap {
  accountId: string;
  iban?: string;
  day: string;
  continuity: string;
  finding?: string;
}

/** Continuity states of a statement day that need a person. */
const BROKEN = ['gap', 'mismatch'] as const;
/** Accounts whose broken days one query reads. */
const ACCOUNT_BATCH = 50;

export class TodayViews {
  constructor(private readonly db: Database) {}

  /** Files refused whole, newest first. */
  async rejectedFiles(company: string, query: PageQuery = {}): Promise<Paged<StoredFile>> {
    const keys = ['received_at', 'id'];
    const q = this.list('payment_files', 'payment_files_today_ix', query, keys, 'desc')
      .select('*')
      .where({ company, state: 'rejected' });
    return keysetPage(q, query, toStoredFile, keyOf(keys));
  }

  /** Bulks whose outcome at the bank is unknown, by id. */
  async unknownBulks(company: string, query: PageQuery = {}): Promise<Paged<TodayBulk>> {
    const keys = ['id'];
    const q = this.list('bulks', 'bulks_console_state_ix', query, keys, 'asc')
      .select('id', 'file_id', 'debtor_iban', 'execution_date', 'line_count')
      .where({ company, state: 'unknown' });
    return keysetPage(
      q,
      query,
      (r) => ({
        id: toStr(r.id),
        fileId: toStr(r.file_id),
        debtorIban: toStr(r.debtor_iban),
        executionDate: toStr(r.execution_date),
        lineCount: toInt(r.line_count),
      }),
      keyOf(keys),
    );
  }

  /** Findings of the latest run nobody has decided on, newest first. */
  async openFindings(company: string, query: PageQuery = {}): Promise<Paged<StoredFinding>> {
    const keys = ['first_seen_at', 'id'];
    const q = this.list('findings', 'findings_today_ix', query, keys, 'desc')
      .select('*')
      .where({ company, present: true, decision: 'open' });
    return keysetPage(q, query, toStoredFinding, keyOf(keys));
  }

  /** Consents expiring at or before `horizon` (expired ones included), soonest first. */
  async consentsExpiringBy(company: string, horizon: Date, query: PageQuery = {}): Promise<Paged<TodayConsent>> {
    const keys = ['expires_at', 'bank_id'];
    const q = this.list('consents', 'consents_today_ix', query, keys, 'asc')
      .select('bank_id', 'consent_id', 'status', 'expires_at')
      .where({ company })
      .whereNotNull('expires_at')
      .where('expires_at', '<=', horizon.toISOString());
    return keysetPage(
      q,
      query,
      (r) => ({
        bankId: toStr(r.bank_id),
        consentId: toStr(r.consent_id),
        status: toStr(r.status),
        expiresAt: new Date(toStr(r.expires_at)),
      }),
      keyOf(keys),
    );
  }

  /** Approval links issued and not used whose expiry is at or before `horizon`, soonest first. */
  async linksExpiringBy(company: string, horizon: Date, query: PageQuery = {}): Promise<Paged<TodayLink>> {
    const keys = ['sca_link_expires_at', 'id'];
    // Only the expiry is read: the link itself is shown by the one action that records it.
    const q = this.list('baskets', 'baskets_today_link_ix', query, keys, 'asc')
      .select('id', 'bank_basket_id', 'sca_link_expires_at')
      .select(
        this.db.knex.raw(
          "(select max(t.at) from transitions t where t.entity_type = 'basket' and t.entity_id = baskets.id and t.to_state = 'link_issued') as issued_at",
        ),
      )
      .where({ company, state: 'link_issued' })
      .whereNotNull('sca_link_expires_at')
      .where('sca_link_expires_at', '<=', horizon.toISOString());
    return keysetPage(
      q,
      query,
      (r) => {
        const bankBasketId = toOptStr(r.bank_basket_id);
        const issuedAt = toOptStr(r.issued_at);
        return {
          basketId: toStr(r.id),
          ...(bankBasketId === undefined ? {} : { bankBasketId }),
          expiresAt: new Date(toStr(r.sca_link_expires_at)),
          ...(issuedAt === undefined ? {} : { issuedAt: new Date(issuedAt) }),
        };
      },
      keyOf(keys),
    );
  }

  /**
   * Statement days with a gap or a mismatch, account by account, then by kind and day.
   * statement_days has no company: the company's accounts are read a batch at a time (by id,
   * on accounts_console_ix) and each batch's broken days are one set of index ranges, so a page
   * never joins or sorts the days of the whole install.
   */
  async statementGaps(company: string, query: PageQuery = {}): Promise<Paged<TodayGap>> {
    const limit = pageSize(query);
    const cursor = query.after === undefined ? undefined : decodeCursor(query.after, 3);
    const keys = ['account_id', 'continuity', 'day'];
    const found: TodayGap[] = [];
    let from = cursor?.[0];
    for (let first = true; found.length <= limit; first = false) {
      const accounts = this.db
        .knex<Row>('accounts')
        .select('id', 'iban')
        .where({ company })
        .orderBy('id', 'asc')
        .limit(ACCOUNT_BATCH);
      if (from !== undefined) void accounts.where('id', first ? '>=' : '>', from);
      const batch = (await accounts) as Row[];
      if (batch.length === 0) break;
      const ibans = new Map(batch.map((a) => [toStr(a.id), toOptStr(a.iban)]));
      const days = this.list('statement_days', 'statement_days_today_ix', {}, keys, 'asc')
        .select('account_id', 'day', 'continuity', 'finding')
        .whereIn('account_id', [...ibans.keys()])
        .whereIn('continuity', [...BROKEN])
        .limit(limit + 1 - found.length);
      if (first && cursor) afterKey(days, keys, cursor, 'asc');
      for (const r of (await days) as Row[]) {
        const iban = ibans.get(toStr(r.account_id));
        const finding = toOptStr(r.finding);
        found.push({
          accountId: toStr(r.account_id),
          day: toStr(r.day),
          continuity: toStr(r.continuity),
          ...(iban === undefined ? {} : { iban }),
          ...(finding === undefined ? {} : { finding }),
        });
      }
      if (batch.length < ACCOUNT_BATCH) break;
      from = toStr(batch.at(-1)!.id);
    }
    const rows = found.slice(0, limit);
    const last = rows.at(-1);
    return {
      rows,
      ...(found.length > limit && last ? { next: encodeCursor([last.accountId, last.continuity, last.day]) } : {}),
    };
  }

  /**
   * A query on `table` read through `index`, ordered by `keys`, starting after the query's
   * cursor. The index is named to the engine: without statistics SQLite prefers an older,
   * shorter index that also gives the order but not the range (migration 0240's
   * findings_console_ix walks every acknowledged finding), and a named index that cannot serve
   * the query is an error there rather than a silent scan.
   */
  private list(
    table: string,
    index: string,
    query: PageQuery,
    keys: readonly string[],
    order: 'asc' | 'desc',
  ): Knex.QueryBuilder {
    const q = this.db.knex
      .from<Row>(throughIndex(this.db.knex, table, index))
      .orderBy(keys.map((column) => ({ column, order })));
    if (query.after !== undefined) afterKey(q, keys, decodeCursor(query.after, keys.length), order);
    return q;
  }
}

/** The cursor of a row: its sort key's values as text. */
function keyOf(keys: readonly string[]): (r: Row) => string[] {
  return (r) => keys.map((k) => toStr(r[k]));
}
