// Read models of the web console's pages (src/server/console/pages/). Every list is paged in the
// database by keyset (src/store/keyset-paging.ts explains the cursor). Nothing here writes.
import type { LocalDate } from '../domain/local-date.js';
import type { PayrollPart } from '../domain/payroll.js';
import { foldForSearch, prefixEnd } from '../domain/search-fold.js';
import type { PaymentState } from '../domain/states.js';
import { basketHistory, type BasketHistory } from './basket-history.js';
import { toConsent, type StoredConsent } from './consents.js';
import type { Database } from './database.js';
import { toStoredFile, type StoredFile } from './file-ledger.js';
import { narrowFindings, type FindingFilter } from './finding-filter.js';
import { findingFacts, type FindingFacts } from './finding-facts.js';
import { releasedHolds, type ReleasedHold } from './held-payments.js';
import { toStoredFinding, type StoredFinding } from './findings.js';
import {
  afterAsc,
  afterDesc,
  BadCursorError,
  decodeCursor,
  keysetPage,
  type PageQuery,
  type Paged,
} from './keyset-paging.js';
import { toStoredPayment, type StoredPayment } from './payments.js';
import { stateRoute, throughStateIndex } from './state-index.js';
import { throughIndex, toBigInt, toInt, toOptDate, toOptStr, toStr, type Row } from './rows.js';
import { toDay, type StatementDay } from './statement-days.js';

// Where callers have always found them.
export { BadCursorError, type PageQuery, type Paged } from './keyset-paging.js';
export type { FindingFilter } from './finding-filter.js';

export interface PaymentSearch extends PageQuery {
  company: string;
  endToEndId?: string;
  /** The creditor reference (KID, RF) or the ERP's own reference on the payment. */
  reference?: string;
  /** An IBAN (exact, any spacing removed by the caller) or the start of the creditor's name. */
  creditorIban?: string;
  /** Compared folded (src/domain/search-fold.ts): case, white space and NFC do not matter; æ, ø, å stay letters. */
  creditorNamePrefix?: string;
  amountMinor?: bigint;
  currency?: string;
  from?: LocalDate;
  to?: LocalDate;
  states?: readonly PaymentState[];
  /**
   * Leaves payroll lines out (category purpose SALA or a payroll debtor account): for a person
   * without the payroll role a search by creditor or amount must not find them.
   */
  withoutPayroll?: { debtorIbans: readonly string[] };
}

export interface WaitingBasket {
  id: string;
  state: string;
  bankBasketId?: string;
  approvalLinkExpiresAt?: Date;
  /** When the current link was issued (its latest move to link_issued). */
  approvalLinkIssuedAt?: Date;
  hasLink: boolean;
  createdAt: Date;
  bulkCount: number;
  lineCount: number;
  /** Minor units per currency. */
  totals: Record<string, bigint>;
}

/** A payment's creditor was paid before when a payment to its account reached the bank's settlement. */
const PAID_STATES: readonly PaymentState[] = ['ACSP', 'ACSC', 'ACCC'];

export interface ApprovalMarks {
  /** File id → the file's name as it arrived. */
  fileNames: ReadonlyMap<string, string>;
  /** File id → who dropped it into the inbox (payment_files.dropped_by), when recorded. */
  droppedBy: ReadonlyMap<string, string>;
  /** Creditor accounts the company paid before; a payment to any other is a first payment. */
  paidBefore: ReadonlySet<string>;
  /** Payment ids a person released from a hold → the rules that held it and who released it. */
  released: ReadonlyMap<string, ReleasedHold>;
}

export interface ConsoleAccount {
  id: string;
  iban?: string;
  currency?: string;
  name?: string;
  /** The bank's status of the account (`enabled`, `blocked`, …) as last fetched. */
  status?: string;
  lastFetchedAt?: Date;
}

export interface ExportedDay extends StatementDay {
  /** The formats written for the day (newest version of each), e.g. camt.053.001.02. */
  exports: { format: string; fileName: string; version: number }[];
}

export class ConsoleViews {
  constructor(private readonly db: Database) {}

  /** A company's payment files, newest first. */
  async files(company: string, query: PageQuery & { state?: string } = {}): Promise<Paged<StoredFile>> {
    const q = this.db
      .knex<Row>('payment_files')
      .select('*')
      .where({ company })
      .orderBy([
        { column: 'received_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    if (query.state !== undefined) void q.where({ state: query.state });
    if (query.after !== undefined) afterDesc(q, ['received_at', 'id'], decodeCursor(query.after, 2));
    return keysetPage(q, query, toStoredFile, (r) => [toStr(r.received_at), toStr(r.id)]);
  }

  /** Payments matching every given criterion, latest execution date first. */
  async searchPayments(search: PaymentSearch): Promise<Paged<StoredPayment>> {
    // By state: the index, the lines' bulks or their dates (src/store/state-index.ts).
    const route =
      search.states === undefined ? undefined : await stateRoute(this.db.knex, search.company, search.states);
    if (route?.via === 'none') return { rows: [] };
    const q = this.db.knex
      .from<Row>(route?.via === 'bulks' ? throughIndex(this.db.knex, 'payments', 'payments_bulk_ix') : 'payments')
      .select('*')
      .where({ company: search.company })
      .orderBy([
        { column: 'execution_date', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    if (search.endToEndId !== undefined) void q.where({ end_to_end_id: search.endToEndId });
    if (search.reference !== undefined) void q.where({ creditor_reference: search.reference });
    if (search.creditorIban !== undefined) void q.where({ creditor_iban: search.creditorIban });
    if (search.creditorNamePrefix !== undefined) {
      // The folded name (src/domain/search-fold.ts, migration 0761) from the folded prefix up to
      // the first text after every one that starts with it: a range of the company's index.
      const prefix = foldForSearch(search.creditorNamePrefix);
      const end = prefixEnd(prefix);
      void q.where('creditor_name_folded', '>=', prefix);
      if (end !== undefined) void q.andWhere('creditor_name_folded', '<', end);
    }
    if (search.amountMinor !== undefined) void q.where({ amount_minor: search.amountMinor.toString() });
    if (search.currency !== undefined) void q.where({ currency: search.currency });
    if (search.from !== undefined) void q.where('execution_date', '>=', search.from);
    if (search.to !== undefined) void q.where('execution_date', '<=', search.to);
    if (search.states !== undefined) {
      if (route?.via === 'index') void throughStateIndex(this.db.knex, q);
      if (route?.via === 'bulks') void q.whereIn('bulk_id', route.bulkIds);
      void q.whereIn('state', [...search.states]);
    }
    if (search.withoutPayroll !== undefined) {
      void q.where((w) => void w.whereNull('category_purpose').orWhereNot('category_purpose', 'SALA'));
      if (search.withoutPayroll.debtorIbans.length > 0)
        void q.whereNotIn('debtor_iban', [...search.withoutPayroll.debtorIbans]);
    }
    if (search.after !== undefined) afterDesc(q, ['execution_date', 'id'], decodeCursor(search.after, 2));
    return keysetPage(q, search, toStoredPayment, (r) => [toStr(r.execution_date), toStr(r.id)]);
  }

  async file(company: string, id: string): Promise<StoredFile | undefined> {
    const row = await this.db.knex<Row>('payment_files').where({ company, id }).first();
    return row ? toStoredFile(row) : undefined;
  }

  /** The accepted payments of a file, in line order. */
  async fileLines(fileId: string, query: PageQuery = {}): Promise<Paged<StoredPayment>> {
    const q = this.db.knex<Row>('payments').select('*').where({ file_id: fileId }).orderBy('line_number', 'asc');
    if (query.after !== undefined) {
      const line = Number(decodeCursor(query.after, 1)[0]);
      if (!Number.isSafeInteger(line)) throw new BadCursorError();
      void q.where('line_number', '>', line);
    }
    return keysetPage(q, query, toStoredPayment, (r) => [String(toInt(r.line_number))]);
  }

  /** One payment of the company by settle's id. */
  async payment(company: string, id: string): Promise<StoredPayment | undefined> {
    const row = await this.db.knex<Row>('payments').where({ company, id }).first();
    return row ? toStoredPayment(row) : undefined;
  }

  /**
   * Reconciliation findings of the company (those of its latest run, or all), newest first,
   * narrowed in SQL by the Reconciliation page's filters (FindingFilter).
   */
  async findings(
    company: string,
    query: PageQuery & { all?: boolean } & FindingFilter = {},
  ): Promise<Paged<StoredFinding>> {
    const q = this.db
      .knex<Row>('findings')
      .select('*')
      .where({ company })
      .orderBy([
        { column: 'first_seen_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    if (!query.all) void q.where({ present: true });
    narrowFindings(q, query);
    if (query.after !== undefined) afterDesc(q, ['first_seen_at', 'id'], decodeCursor(query.after, 2));
    return keysetPage(q, query, toStoredFinding, (r) => [toStr(r.first_seen_at), toStr(r.id)]);
  }

  /**
   * Findings about one payment, newest first, at most 20: those reconciliation names by the
   * payment's id (`payment <id>`, src/domain/reconcile/decisions.ts) and those whose subject names its
   * end-to-end id.
   */
  async findingsAbout(company: string, line: { id: string; endToEndId: string }): Promise<StoredFinding[]> {
    // `!` escapes the wildcards: a backslash would be read as an escape inside MariaDB's string
    // literal (`escape '\'` does not parse there), and `!` means the same on both engines.
    const like = `%${line.endToEndId.replace(/[!%_]/g, (c) => `!${c}`)}%`;
    const rows = await this.db
      .knex<Row>('findings')
      .where({ company })
      .andWhere((q) => void q.where({ subject: `payment ${line.id}` }).orWhereRaw("subject like ? escape '!'", [like]))
      .orderBy('first_seen_at', 'desc')
      .limit(20);
    return rows.map(toStoredFinding);
  }

  /** The payment or booking each finding of a page is about (./finding-facts.ts). */
  findingFacts(company: string, findings: readonly StoredFinding[]): Promise<FindingFacts> {
    return findingFacts(this.db, company, findings);
  }

  /** The company's signing baskets waiting for approval at the bank (by state, then oldest first), with totals. */
  async waitingBaskets(company: string, query: PageQuery = {}): Promise<Paged<WaitingBasket>> {
    const q = this.db
      .knex<Row>('baskets')
      .select('id', 'state', 'bank_basket_id', 'sca_link_expires_at', 'created_at')
      .select(this.db.knex.raw('case when sca_link is null then 0 else 1 end as has_link'))
      .where({ company })
      .whereIn('state', ['created', 'link_issued'])
      // By state first: the index then yields the rows in order, with no sort of the company's baskets.
      .orderBy([
        { column: 'state', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]);
    if (query.after !== undefined) afterAsc(q, ['state', 'id'], decodeCursor(query.after, 2));
    const page = await keysetPage(
      q,
      query,
      (r) => r,
      (r) => [toStr(r.state), toStr(r.id)],
    );
    const rows = await Promise.all(page.rows.map((r) => this.withTotals(r)));
    return { rows, ...(page.next ? { next: page.next } : {}) };
  }

  /** One waiting or decided basket of the company, with totals (undefined when unknown). */
  async basket(company: string, id: string): Promise<WaitingBasket | undefined> {
    const row = await this.db
      .knex<Row>('baskets')
      .select('id', 'state', 'bank_basket_id', 'sca_link_expires_at', 'created_at')
      .select(this.db.knex.raw('case when sca_link is null then 0 else 1 end as has_link'))
      .where({ company, id })
      .first();
    return row ? this.withTotals(row) : undefined;
  }

  /**
   * The basket's approval link, for the one action that shows it to an approver. Read here and
   * nowhere else in the console: a list or page never carries it, so it is never prefetched.
   */
  async basketLink(company: string, id: string): Promise<{ link: string; expiresAt?: Date } | undefined> {
    const row = await this.db
      .knex<Row>('baskets')
      .select('sca_link', 'sca_link_expires_at')
      .where({ company, id })
      .first();
    const link = toOptStr(row?.sca_link);
    const expiresAt = toOptDate(row?.sca_link_expires_at);
    return link === undefined ? undefined : { link, ...(expiresAt ? { expiresAt } : {}) };
  }

  /** When a basket's link was issued and it was approved, and to whom the console showed its link. */
  basketHistory(id: string): Promise<BasketHistory> {
    return basketHistory(this.db.knex, id);
  }

  /** The payments of a basket's bulks, by settle's id. */
  async basketPayments(basketId: string, query: PageQuery = {}): Promise<Paged<StoredPayment>> {
    const q = this.db
      .knex<Row>('payments')
      .select('*')
      .whereIn('bulk_id', this.db.knex('basket_items').select('bulk_id').where({ basket_id: basketId }))
      .orderBy('id', 'asc');
    if (query.after !== undefined) void q.where('id', '>', decodeCursor(query.after, 1)[0]!);
    return keysetPage(q, query, toStoredPayment, (r) => [toStr(r.id)]);
  }

  /**
   * What an approver needs beside each payment of a basket: its file's name, whether its creditor
   * account was ever paid before by the company (outside these payments), and whether a person
   * released it from a hold. Three reads for the whole page, none per payment.
   */
  async approvalMarks(company: string, lines: readonly StoredPayment[]): Promise<ApprovalMarks> {
    const ids = lines.map((l) => l.id);
    const knex = this.db.knex;
    const [files, paid, released] = await Promise.all([
      knex<Row>('payment_files')
        .select('id', 'file_name', 'dropped_by')
        .whereIn('id', [...new Set(lines.map((l) => l.fileId))]),
      knex<Row>('payments')
        .distinct('creditor_iban')
        .where({ company })
        .whereIn('creditor_iban', [...new Set(lines.map((l) => l.creditorIban))])
        .whereIn('state', PAID_STATES)
        .whereNotIn('id', ids),
      releasedHolds(knex, company, ids),
    ]);
    return {
      fileNames: new Map(files.map((r) => [toStr(r.id), toStr(r.file_name)])),
      droppedBy: new Map(files.filter((r) => r.dropped_by != null).map((r) => [toStr(r.id), toStr(r.dropped_by)])),
      paidBefore: new Set(paid.map((r) => toStr(r.creditor_iban))),
      released,
    };
  }

  /**
   * A basket's totals per debtor account and currency, in minor units; without the payroll
   * payments (src/domain/payroll.ts) for a person who may not see them.
   */
  async basketTotalsByAccount(
    basketId: string,
    options: { withoutPayroll?: { debtorIbans: readonly string[] } } = {},
  ): Promise<{ debtorIban: string; currency: string; minor: bigint }[]> {
    const q = this.db
      .knex<Row>('payments')
      .select('debtor_iban', 'currency')
      .sum({ total: 'amount_minor' })
      .whereIn('bulk_id', this.db.knex('basket_items').select('bulk_id').where({ basket_id: basketId }))
      .groupBy('debtor_iban', 'currency')
      .orderBy(['debtor_iban', 'currency']);
    if (options.withoutPayroll) {
      void q.where((w) => void w.whereNull('category_purpose').orWhereNot('category_purpose', 'SALA'));
      if (options.withoutPayroll.debtorIbans.length > 0)
        void q.whereNotIn('debtor_iban', [...options.withoutPayroll.debtorIbans]);
    }
    const rows = (await q) as Row[];
    return rows.map((r) => ({
      debtorIban: toStr(r.debtor_iban),
      currency: toStr(r.currency),
      minor: toBigInt(r.total),
    }));
  }

  /**
   * The payroll lines inside the totals of these files, bulks or baskets (the rule of
   * src/domain/payroll.ts in SQL: SALA, or a payroll debtor account): how many and their sums per
   * currency, by id. A page subtracts them for a person who may not see payroll. One read a page.
   */
  async payrollParts(
    of: 'file' | 'bulk' | 'basket',
    ids: readonly string[],
    payrollAccounts: readonly string[],
  ): Promise<Map<string, PayrollPart>> {
    const parts = new Map<string, { lines: number; totals: Record<string, bigint> }>();
    if (ids.length === 0) return parts;
    const knex = this.db.knex;
    const key = of === 'basket' ? 'basket_items.basket_id' : of === 'file' ? 'payments.file_id' : 'payments.bulk_id';
    const q = knex<Row>('payments')
      .select({ owner: key }, 'payments.currency')
      .count({ lines: '*' })
      .sum({ total: 'payments.amount_minor' })
      .where((w) => {
        void w.where('payments.category_purpose', 'SALA');
        if (payrollAccounts.length > 0) void w.orWhereIn('payments.debtor_iban', [...payrollAccounts]);
      })
      .groupBy(key, 'payments.currency');
    if (of === 'basket') void q.join('basket_items', 'basket_items.bulk_id', 'payments.bulk_id').whereIn(key, [...ids]);
    else void q.whereIn(key, [...ids]);
    for (const r of (await q) as Row[]) {
      const part = parts.get(toStr(r.owner)) ?? { lines: 0, totals: {} };
      part.lines += toInt(r.lines);
      part.totals[toStr(r.currency)] = toBigInt(String(r.total));
      parts.set(toStr(r.owner), part);
    }
    return parts;
  }

  private async withTotals(r: Row): Promise<WaitingBasket> {
    const id = toStr(r.id);
    const bulks = this.db.knex('basket_items').select('bulk_id').where({ basket_id: id });
    const sums = (await this.db
      .knex<Row>('payments')
      .select('currency')
      .count({ lines: '*' })
      .sum({ total: 'amount_minor' })
      .whereIn('bulk_id', bulks)
      .groupBy('currency')
      .orderBy('currency')) as Row[];
    const bulkCount = (await this.db.knex<Row>('basket_items').count({ n: '*' }).where({ basket_id: id }).first())?.n;
    const bankBasketId = toOptStr(r.bank_basket_id);
    const approvalLinkExpiresAt = toOptDate(r.sca_link_expires_at);
    // When the current link was issued, so its expiry can be read against its whole life.
    const issued = approvalLinkExpiresAt
      ? await this.db
          .knex<Row>('transitions')
          .max({ at: 'at' })
          .where({ entity_type: 'basket', entity_id: id, to_state: 'link_issued' })
          .first()
      : undefined;
    const approvalLinkIssuedAt = toOptDate(issued?.at);
    return {
      id,
      state: toStr(r.state),
      ...(bankBasketId === undefined ? {} : { bankBasketId }),
      ...(approvalLinkExpiresAt === undefined ? {} : { approvalLinkExpiresAt }),
      ...(approvalLinkIssuedAt === undefined ? {} : { approvalLinkIssuedAt }),
      hasLink: toInt(r.has_link) === 1,
      createdAt: new Date(toStr(r.created_at)),
      bulkCount: toInt(bulkCount ?? 0),
      lineCount: sums.reduce((n, s) => n + toInt(s.lines), 0),
      // SUM of BIGINT is DECIMAL on MariaDB (a string) and an integer on SQLite: both exact.
      totals: Object.fromEntries(sums.map((s) => [toStr(s.currency), toBigInt(String(s.total))])),
    };
  }

  /** The company's bank accounts with their status at the bank, by id. */
  async accounts(company: string, query: PageQuery = {}): Promise<Paged<ConsoleAccount>> {
    const q = this.db.knex<Row>('accounts').select('*').where({ company }).orderBy('id', 'asc');
    if (query.after !== undefined) void q.where('id', '>', decodeCursor(query.after, 1)[0]!);
    return keysetPage(q, query, toAccount, (r) => [toStr(r.id)]);
  }

  /** The company's consents, one per bank, by bank id: a range of the primary key (company, bank_id). */
  async consents(company: string, query: PageQuery = {}): Promise<Paged<StoredConsent>> {
    const q = this.db.knex<Row>('consents').select('*').where({ company }).orderBy('bank_id', 'asc');
    if (query.after !== undefined) void q.where('bank_id', '>', decodeCursor(query.after, 1)[0]!);
    return keysetPage(q, query, toConsent, (r) => [toStr(r.bank_id)]);
  }

  async account(company: string, id: string): Promise<ConsoleAccount | undefined> {
    const row = await this.db.knex<Row>('accounts').where({ company, id }).first();
    return row ? toAccount(row) : undefined;
  }

  /** An account's checked statement days, newest first, with what was exported for each. */
  async statementDays(accountId: string, query: PageQuery = {}): Promise<Paged<ExportedDay>> {
    const q = this.db.knex<Row>('statement_days').select('*').where({ account_id: accountId }).orderBy('day', 'desc');
    if (query.after !== undefined) void q.where('day', '<', decodeCursor(query.after, 1)[0]!);
    const page = await keysetPage(q, query, toDay, (r) => [toStr(r.day)]);
    const days = page.rows.map((d) => d.day);
    const exported = days.length
      ? ((await this.db
          .knex<Row>('exports')
          .select('format', 'period', 'file_name', 'version')
          .where({ subject_id: accountId })
          .whereIn('period', days)
          .orderBy([{ column: 'format' }, { column: 'version', order: 'desc' }])) as Row[])
      : [];
    const byDay = new Map<string, ExportedDay['exports']>();
    for (const e of exported) {
      const list = byDay.get(toStr(e.period)) ?? [];
      if (!list.some((x) => x.format === toStr(e.format)))
        list.push({ format: toStr(e.format), fileName: toStr(e.file_name), version: toInt(e.version) });
      byDay.set(toStr(e.period), list);
    }
    return {
      rows: page.rows.map((d) => ({ ...d, exports: byDay.get(d.day) ?? [] })),
      ...(page.next ? { next: page.next } : {}),
    };
  }
}

function toAccount(r: Row): ConsoleAccount {
  const opt = (key: keyof ConsoleAccount, v: unknown) => {
    const s = toOptStr(v);
    return s === undefined ? {} : { [key]: s };
  };
  const lastFetchedAt = toOptDate(r.last_fetched_at);
  return {
    id: toStr(r.id),
    ...opt('iban', r.iban),
    ...opt('currency', r.currency),
    ...opt('name', r.name),
    ...opt('status', r.account_status),
    ...(lastFetchedAt ? { lastFetchedAt } : {}),
  };
}
