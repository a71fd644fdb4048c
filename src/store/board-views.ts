// Read model of the bureau's board (the console's Board page and `settle health`): per company,
// what needs a person — not onboarded, steps of last night that did not complete, rejected
// files, payments held or unknown, approvals waiting, open findings, consents and approval links
// expiring — sorted by what needs attention, filtered and paged in the database.
//
// The companies come from the configuration, not from a table: they go into the query as a
// VALUES list (id and configuration position), so a company with no row anywhere (a new,
// unonboarded one) is still on the board, and red. Each figure is one grouped read over its
// table for every company at once (the counters of state_counts, indexes of migration 0680),
// joined to that list: one query for the page's order and counts, however many companies, then
// two for the money and the steps of the page's companies alone. Never one query per company.
//
// Paging is by page number, not by keyset: the sort key is made of the figures of every company
// the person may see, which each page computes anyway, so an offset into them costs nothing more.
import type { Knex } from 'knex';
import { isMysqlKnex, toBigInt, toInt, toOptDate, toStr, type Row } from './rows.js';
import type { Database } from './database.js';
import { throughStateIndex } from './state-index.js';

/** What a board lists: every company, those needing attention, or those not onboarded. */
export type BoardFilter = 'all' | 'needs-attention' | 'not-onboarded';
export const BOARD_FILTERS: readonly BoardFilter[] = ['all', 'needs-attention', 'not-onboarded'];
/**
 * How a board is ordered: by what needs attention (then position), or by position alone — the
 * caller's order of `companies`, such as their names as the reader's language sorts them, which
 * the database cannot collate for every language but can page once it is given as positions.
 */
export type BoardOrder = 'attention' | 'position';

export interface BoardQuery {
  /** The companies the reader may see, in configuration order (the last sort key; the only one by 'position'). */
  companies: readonly string[];
  /** The steps of a night, whose last success per company is read. */
  steps: readonly string[];
  now: Date;
  /** "Last night": a step whose last success is older than this did not complete. */
  nightSince: Date;
  /** Consents expiring at or before this are counted (alerts.warnBefore). */
  consentHorizon: Date;
  /** Approval links expiring at or before this are counted (alerts.linkWarnBefore). */
  linkHorizon: Date;
  filter?: BoardFilter;
  /** Default 'attention'. */
  order?: BoardOrder;
  /** 1-based. */
  page?: number;
  /** Companies per page (default 50). */
  pageSize?: number;
}

export interface BoardStep {
  job: string;
  lastSuccess?: Date;
  /** Completed within the night (since `nightSince`). */
  done: boolean;
}

export interface BoardCompany {
  company: string;
  /** A usable consent and an enabled account (src/domain/onboarding.ts). */
  onboarded: boolean;
  liveConsents: number;
  enabledAccount: boolean;
  /** Each step of the night, in the order asked. */
  steps: BoardStep[];
  stepsMissed: number;
  rejectedFiles: number;
  heldPayments: number;
  unknownPayments: number;
  approvalsWaiting: number;
  openFindings: number;
  consentsExpiring: number;
  linksExpiring: number;
  /** The amounts of the payments held or unknown, per currency (alphabetical), in minor units. */
  atStake: { currency: string; minor: bigint }[];
  needsAttention: boolean;
}

export interface BoardPage {
  rows: BoardCompany[];
  page: number;
  pageSize: number;
  /** Companies under the filter, and the pages they fill. */
  total: number;
  pages: number;
  /** Companies the reader may see, those needing attention and those not onboarded. */
  counts: { all: number; needsAttention: number; notOnboarded: number };
}

export const BOARD_PAGE_SIZE = 50;
/** Payment states whose money waits on a person: held at pickup, or unknown at the bank. */
const AT_STAKE_STATES = ['held', 'unknown'];
/** Basket states waiting for approvers (the Approvals page's). */
const WAITING_BASKETS = ['created', 'link_issued'];

const FILTER_SQL: Record<BoardFilter, string> = {
  all: '1 = 1',
  'needs-attention': 'needs_attention = 1',
  'not-onboarded': 'onboarded = 0',
};

const ORDER_SQL: Record<BoardOrder, string> = {
  attention: 'onboarded asc, steps_missed desc, waiting desc, position asc',
  position: 'position asc',
};

export class BoardViews {
  constructor(private readonly db: Database) {}

  async page(query: BoardQuery): Promise<BoardPage> {
    const pageSize = Math.min(Math.max(query.pageSize ?? BOARD_PAGE_SIZE, 1), 1000);
    const page = Math.max(query.page ?? 1, 1);
    const filter = query.filter ?? 'all';
    const empty = { rows: [], page, pageSize, total: 0, pages: 0 };
    if (query.companies.length === 0 || query.steps.length === 0)
      return { ...empty, counts: { all: 0, needsAttention: 0, notOnboarded: 0 } };
    const ranked = await this.ranked(query, { filter, page, pageSize, order: query.order ?? 'attention' });
    const first = ranked[0];
    const counts = first
      ? { all: toInt(first.companies), needsAttention: toInt(first.needing), notOnboarded: toInt(first.red) }
      : await this.counts(query);
    const total = { all: counts.all, 'needs-attention': counts.needsAttention, 'not-onboarded': counts.notOnboarded }[
      filter
    ];
    const ids = ranked.map((r) => toStr(r.company));
    const [money, steps] = await Promise.all([this.atStake(ids), this.steps(ids, query)]);
    const rows = ranked.map((r): BoardCompany => {
      const company = toStr(r.company);
      return {
        company,
        onboarded: toInt(r.onboarded) === 1,
        liveConsents: toInt(r.live_consents),
        enabledAccount: toInt(r.enabled_account) === 1,
        steps: steps.get(company) ?? [],
        stepsMissed: toInt(r.steps_missed),
        rejectedFiles: toInt(r.rejected_files),
        heldPayments: toInt(r.held_payments),
        unknownPayments: toInt(r.unknown_payments),
        approvalsWaiting: toInt(r.approvals),
        openFindings: toInt(r.findings),
        consentsExpiring: toInt(r.consents_expiring),
        linksExpiring: toInt(r.links_expiring),
        atStake: money.get(company) ?? [],
        needsAttention: toInt(r.needs_attention) === 1,
      };
    });
    return { rows, page, pageSize, total, pages: Math.ceil(total / pageSize), counts };
  }

  /** The page's companies with their counts, in the board's order, each row carrying the totals. */
  private async ranked(
    query: BoardQuery,
    { filter, page, pageSize, order }: { filter: BoardFilter; page: number; pageSize: number; order: BoardOrder },
  ): Promise<Row[]> {
    const { sql, bindings } = figuresSql(query);
    const result: unknown = await this.db.knex.raw(
      `${sql}
       select * from (
         select b.*, count(*) over () as companies, sum(needs_attention) over () as needing,
                sum(1 - onboarded) over () as red
         from b
       ) w
       where ${FILTER_SQL[filter]}
       order by ${ORDER_SQL[order]}
       limit ? offset ?`,
      [...bindings, pageSize, (page - 1) * pageSize],
    );
    return rowsOf(this.db, result);
  }

  /** The totals alone, for a page past the last one (which has no row to carry them). */
  private async counts(query: BoardQuery): Promise<BoardPage['counts']> {
    const { sql, bindings } = figuresSql(query);
    const result: unknown = await this.db.knex.raw(
      `${sql}
       select count(*) as companies, coalesce(sum(needs_attention), 0) as needing,
              coalesce(sum(1 - onboarded), 0) as red
       from b`,
      bindings,
    );
    const [r] = rowsOf(this.db, result);
    return { all: toInt(r?.companies ?? 0), needsAttention: toInt(r?.needing ?? 0), notOnboarded: toInt(r?.red ?? 0) };
  }

  /** The money of the payments held or unknown, per company and currency: one grouped read. */
  private async atStake(companies: readonly string[]): Promise<Map<string, BoardCompany['atStake']>> {
    const out = new Map<string, BoardCompany['atStake']>();
    if (companies.length === 0) return out;
    // Both are states the console's state index holds (src/store/state-index.ts).
    const rows: Row[] = await throughStateIndex(
      this.db.knex,
      this.db
        .knex<Row>('payments')
        .select('company', 'currency')
        .sum({ total: 'amount_minor' })
        .whereIn('company', companies)
        .whereIn('state', AT_STAKE_STATES)
        .groupBy('company', 'currency')
        .orderBy('company')
        .orderBy('currency'),
    );
    for (const r of rows) {
      const company = toStr(r.company);
      const list = out.get(company) ?? [];
      list.push({ currency: toStr(r.currency), minor: toBigInt(decimalInteger(r.total)) });
      out.set(company, list);
    }
    return out;
  }

  /** Each step's last success for the page's companies: one read of job_successes. */
  private async steps(companies: readonly string[], query: BoardQuery): Promise<Map<string, BoardStep[]>> {
    const out = new Map<string, BoardStep[]>();
    if (companies.length === 0) return out;
    const rows: Row[] = await this.db
      .knex<Row>('job_successes')
      .select('job', 'company', 'succeeded_at')
      .whereIn('company', companies)
      .whereIn('job', query.steps);
    const last = new Map(rows.map((r) => [`${toStr(r.job)}\u0000${toStr(r.company)}`, toOptDate(r.succeeded_at)]));
    for (const company of companies)
      out.set(
        company,
        query.steps.map((job) => {
          const lastSuccess = last.get(`${job}\u0000${company}`);
          return {
            job,
            ...(lastSuccess === undefined ? {} : { lastSuccess }),
            done: lastSuccess !== undefined && lastSuccess >= query.nightSince,
          };
        }),
      );
    return out;
  }
}

/**
 * The common table expressions that end in `b`: one row per company of the query, with each
 * figure, whether it is onboarded, how many steps of the night did not complete, what waits on
 * a person in all, and whether it needs attention.
 */
function figuresSql(query: BoardQuery): { sql: string; bindings: Knex.RawBinding[] } {
  const values = query.companies.map(() => '(?, ?)').join(', ');
  const steps = query.steps.map(() => '?').join(', ');
  const list = (items: readonly string[]) => items.map((s) => `'${s}'`).join(', ');
  const sql = `with c (company, position) as (values ${values}),
    counted as (
      select company,
        sum(case when kind = 'payment_file' and state = 'rejected' then n else 0 end) as rejected_files,
        sum(case when kind = 'payment' and state = 'held' then n else 0 end) as held_payments,
        sum(case when kind = 'payment' and state = 'unknown' then n else 0 end) as unknown_payments
      from state_counts
      where kind in ('payment_file', 'payment') and state in ('rejected', ${list(AT_STAKE_STATES)})
      group by company),
    waiting as (
      select company, count(*) as approvals,
        sum(case when state = 'link_issued' and sca_link_expires_at <= ? then 1 else 0 end) as links_expiring
      from baskets where state in (${list(WAITING_BASKETS)})
      group by company),
    open_findings as (
      select company, count(*) as findings from findings where present = ? and decision = 'open' group by company),
    consented as (
      select company,
        sum(case when status in ('Authorized', 'Valid') and (expires_at is null or expires_at > ?) then 1 else 0 end)
          as live_consents,
        sum(case when expires_at is not null and expires_at <= ? then 1 else 0 end) as consents_expiring
      from consents group by company),
    usable as (
      select company from accounts where account_status is null or account_status = 'enabled'
      union
      select company from bank_accounts where status = 'enabled'),
    night as (
      select company, count(*) as steps_done from job_successes
      where job in (${steps}) and succeeded_at >= ?
      group by company),
    f as (
      select c.company, c.position,
        coalesce(counted.rejected_files, 0) as rejected_files,
        coalesce(counted.held_payments, 0) as held_payments,
        coalesce(counted.unknown_payments, 0) as unknown_payments,
        coalesce(waiting.approvals, 0) as approvals,
        coalesce(waiting.links_expiring, 0) as links_expiring,
        coalesce(open_findings.findings, 0) as findings,
        coalesce(consented.live_consents, 0) as live_consents,
        coalesce(consented.consents_expiring, 0) as consents_expiring,
        case when exists (select 1 from usable u where u.company = c.company) then 1 else 0 end as enabled_account,
        ? - coalesce(night.steps_done, 0) as steps_missed
      from c
      left join counted on counted.company = c.company
      left join waiting on waiting.company = c.company
      left join open_findings on open_findings.company = c.company
      left join consented on consented.company = c.company
      left join night on night.company = c.company),
    g as (
      select f.*,
        case when live_consents > 0 and enabled_account = 1 then 1 else 0 end as onboarded,
        rejected_files + held_payments + unknown_payments + approvals + findings + consents_expiring
          + links_expiring as waiting
      from f),
    b as (
      select g.*,
        case when onboarded = 0 or steps_missed > 0 or waiting > 0 then 1 else 0 end as needs_attention
      from g)`;
  const bindings: Knex.RawBinding[] = [
    ...query.companies.flatMap((company, position) => [company, position]),
    query.linkHorizon.toISOString(),
    true,
    query.now.toISOString(),
    query.consentHorizon.toISOString(),
    ...query.steps,
    query.nightSince.toISOString(),
    query.steps.length,
  ];
  return { sql, bindings };
}

/** The rows of a raw select: mysql2 answers [rows, fields], better-sqlite3 the rows alone. */
function rowsOf(db: Database, result: unknown): Row[] {
  return isMysqlKnex(db.knex) ? (result as [Row[], unknown])[0] : (result as Row[]);
}

/** MariaDB sums a BIGINT as a DECIMAL, which may come back with a zero fraction ("1234.00"). */
function decimalInteger(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/\.0+$/, '') : value;
}
