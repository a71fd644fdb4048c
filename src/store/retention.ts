// Deleting what settle no longer has to keep, in bounded batches: each statement touches at
// most `batchSize` rows and commits on its own, so a purge of years of a bureau's history never
// holds one huge transaction (no lock stalls for the night's jobs, no undo log in the
// gigabytes) and a purge cut short resumes where it stopped on its next run.
//
// Two kinds of retention (docs/operations.md, "Retention"):
//  - bookkeeping material (payments and their files, bulks and baskets, bank transactions,
//    balances, statement days, export records, reconciliation findings) is kept for as long as
//    the bookkeeping law asks and deleted only after that, as whole payment files;
//  - what no law keeps (the raw JSON of bank transactions beyond the fields a statement is
//    built from, webhook payloads, job runs, sent-alert marks, lapsed claims) is purged after
//    a short operational period.
// The audit trail is never purged by row: it is a hash chain whose every link proves the
// ones before it, and it holds only people's decisions, so it is kept whole.
import type { Knex } from 'knex';
import { bulkMachine, fileMachine } from '../domain/states.js';
import type { Database } from './database.js';
import { forUpdate, instant, toInt, toOptStr, toStr, type Row } from './rows.js';
import { COUNTED_TABLES, countBulkLines, countRows, recountCompany, type CountedKind } from './state-counts.js';
import { BULK_LINES } from './transitions.js';

export interface PurgeCounts {
  [table: string]: number;
}

export interface RetentionOptions {
  /** Rows touched by one statement. */
  batchSize: number;
}

/** Where a company's bookkeeping material begins to be kept: older material may go. */
export interface BookkeepingCutoff {
  company: string;
  /** The first day kept (YYYY-MM-DD), for day columns. */
  day: string;
  /** That day's first instant in the company's time zone, for instant columns. */
  start: Date;
}

const FINAL_FILE_STATES = [...fileMachine.terminal];
const FINAL_BULK_STATES = [...bulkMachine.terminal];

/** The only raw bank field a statement is built from (jobs/statements/build-statement.ts). */
function trimmedRaw(text: unknown): string | null {
  if (text === null || text === undefined) return null;
  try {
    const raw = JSON.parse(toStr(text)) as { references?: { accountServicerReference?: unknown } } | null;
    const ref = raw?.references?.accountServicerReference;
    return typeof ref === 'string' && ref !== ''
      ? JSON.stringify({ references: { accountServicerReference: ref } })
      : null;
  } catch {
    return null;
  }
}

export class RetentionRepository {
  constructor(
    private readonly db: Database,
    private readonly options: RetentionOptions,
  ) {}

  private get knex(): Knex {
    return this.db.knex;
  }

  private get batch(): number {
    return this.options.batchSize;
  }

  /**
   * Deletes the company's payment files received before the cutoff whose every bulk is final,
   * with their payments, bulks, baskets, holds and state histories; files that still have work
   * open (or a payment another file's undecided hold points at) stay.
   */
  async purgePaymentFiles(cutoff: BookkeepingCutoff, counts: PurgeCounts): Promise<void> {
    for (;;) {
      const files = (await this.knex<Row>('payment_files as f')
        .select('f.id')
        .where('f.company', cutoff.company)
        .where('f.received_at', '<', instant(cutoff.start))
        .whereIn('f.state', FINAL_FILE_STATES)
        .whereNotExists(function open() {
          void this.select('b.id')
            .from('bulks as b')
            .whereRaw('b.file_id = f.id')
            .whereNotIn('b.state', FINAL_BULK_STATES);
        })
        .whereNotExists(function heldAgainst() {
          void this.select('h.id')
            .from('held_payments as h')
            .join('payments as p', 'p.id', 'h.matched_payment_id')
            .whereRaw('p.file_id = f.id')
            .whereNull('h.decision');
        })
        .orderBy('f.received_at')
        .limit(this.batch)) as Row[];
      if (files.length === 0) return;
      for (const file of files) await this.purgeFile(cutoff.company, toStr(file.id), counts);
    }
  }

  private async purgeFile(company: string, fileId: string, counts: PurgeCounts): Promise<void> {
    const { knex } = this;
    for (;;) {
      const ids = (await knex<Row>('payments').where({ file_id: fileId }).limit(this.batch).pluck('id')) as string[];
      if (ids.length === 0) break;
      add(counts, 'held_payments', await knex('held_payments').whereIn('payment_id', ids).delete());
      add(counts, 'held_payments', await knex('held_payments').whereIn('matched_payment_id', ids).delete());
      add(counts, 'transitions', await this.deleteTransitions('payment', ids));
      add(counts, 'payments', await this.deleteCounted('payment', ids));
    }
    for (;;) {
      const ids = (await knex<Row>('bulks').where({ file_id: fileId }).limit(this.batch).pluck('id')) as string[];
      if (ids.length === 0) break;
      const baskets = (await knex<Row>('basket_items')
        .whereIn('bulk_id', ids)
        .distinct()
        .pluck('basket_id')) as string[];
      await knex('basket_items').whereIn('bulk_id', ids).delete();
      add(counts, 'transitions', await this.deleteTransitions('bulk', ids));
      add(counts, 'transitions', await this.deleteTransitions(BULK_LINES, ids));
      // Their lines went first (above), each off its bulk's count: only counts of nought are left.
      await knex('bulk_line_counts').whereIn('bulk_id', ids).delete();
      add(counts, 'bulks', await this.deleteCounted('bulk', ids));
      await this.purgeEmptyBaskets(baskets, counts);
    }
    add(counts, 'transitions', await this.deleteTransitions('payment_file', [fileId]));
    // The file's error reports quote its lines: they go with it.
    await this.deleteReports(counts, (q) => q.where({ company, subject_type: 'payment_file', subject_id: fileId }));
    add(counts, 'payment_files', await this.deleteCounted('payment_file', [fileId]));
  }

  /** A basket goes with its last bulk (a basket may sign bulks of several files). */
  private async purgeEmptyBaskets(ids: readonly string[], counts: PurgeCounts): Promise<void> {
    if (ids.length === 0) return;
    const stillUsed = new Set(
      (await this.knex<Row>('basket_items').whereIn('basket_id', ids).distinct().pluck('basket_id')) as string[],
    );
    const empty = ids.filter((id) => !stillUsed.has(id));
    if (empty.length === 0) return;
    add(counts, 'transitions', await this.deleteTransitions('basket', empty));
    add(counts, 'baskets', await this.knex('baskets').whereIn('id', empty).delete());
  }

  /**
   * Sets the company's rows-per-state counters to a count of its rows (src/store/state-counts.ts);
   * returns the ones that were wrong, each as `kind/state: counted → rows`.
   */
  recountStates(company: string): Promise<string[]> {
    return this.db.transaction((trx) => recountCompany(trx, company));
  }

  /**
   * Deletes rows of a counted kind, and takes them off their counters in the same transaction
   * (payments off their bulks' counts of lines too).
   */
  private deleteCounted(kind: CountedKind, ids: readonly string[]): Promise<number> {
    const table = COUNTED_TABLES[kind];
    const by = kind === 'payment' ? ['company', 'state', 'bulk_id'] : ['company', 'state'];
    return this.db.transaction(async (trx) => {
      const gone = await forUpdate(
        trx,
        trx<Row>(table)
          .select(...by)
          .count({ n: '*' })
          .whereIn('id', ids)
          .groupBy(...by),
      );
      for (const r of gone) {
        countRows(trx, kind, toStr(r.company), toStr(r.state), -toInt(r.n));
        const bulkId = toOptStr(r.bulk_id);
        if (bulkId !== undefined) countBulkLines(trx, bulkId, toStr(r.company), toStr(r.state), -toInt(r.n));
      }
      return trx(table).whereIn('id', ids).delete();
    });
  }

  private async deleteTransitions(entityType: string, ids: readonly string[]): Promise<number> {
    return this.knex('transitions').where('entity_type', entityType).whereIn('entity_id', ids).delete();
  }

  /**
   * Deletes the company's statement material dated before the cutoff day: booked transactions,
   * balances, checked days, the records of exported files (the files themselves were the ERP's
   * to take) and their periods' electronic sequence numbers.
   */
  async purgeStatements(cutoff: BookkeepingCutoff, counts: PurgeCounts): Promise<void> {
    const { company, day: beforeDay } = cutoff;
    const start = instant(cutoff.start);
    const accounts = (await this.knex<Row>('accounts').where({ company }).pluck('id')) as string[];
    for (const account of accounts) {
      await this.deleteInBatches('transactions', counts, (q) =>
        q.where({ account_id: account, status: 'booked' }).where('booking_date', '<', beforeDay),
      );
      await this.deleteInBatches(
        'balances',
        counts,
        (q) => q.where({ account_id: account }).where('reference_date', '<', beforeDay),
        ['account_id', 'balance_type', 'reference_date'],
      );
      await this.deleteInBatches(
        'statement_days',
        counts,
        (q) => q.where({ account_id: account }).where('day', '<', beforeDay),
        ['account_id', 'day'],
      );
    }
    await this.deleteInBatches('exports', counts, (q) => q.where({ company }).where('exported_at', '<', start));
    // The electronic sequence numbers of those periods go with them, but for each account and
    // format the highest given: the next period's number follows it, never repeats one.
    await this.deleteInBatches(
      'electronic_sequence_numbers',
      counts,
      (q) =>
        q
          .whereIn('account_id', accounts)
          .where('assigned_at', '<', start)
          .whereRaw('?? < (select max(m.??) from ?? m where m.?? = ?? and m.?? = ??)', [
            'electronic_sequence_numbers.number',
            'number',
            'electronic_sequence_numbers',
            'account_id',
            'electronic_sequence_numbers.account_id',
            'format',
            'electronic_sequence_numbers.format',
          ]),
      ['account_id', 'format', 'period'],
    );
    await this.deleteInBatches(
      'findings',
      counts,
      (q) => q.where({ company, present: false }).where('last_seen_at', '<', start),
      ['company', 'id'],
    );
    // Reconciliation reports recorded for the console (the files in reports/ are the company's).
    await this.deleteReports(counts, (q) =>
      q.where({ company, kind: 'reconciliation' }).where('created_at', '<', start),
    );
  }

  /**
   * Deletes reports in batches with their content's parts (migration 0765), each batch in one
   * transaction so no report is left without its parts. Counted as reports: the parts are
   * their content, not records of their own.
   */
  private async deleteReports(counts: PurgeCounts, where: (q: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<void> {
    for (;;) {
      const ids = (await where(this.knex<Row>('reports')).limit(this.batch).pluck('id')) as string[];
      if (ids.length === 0) return;
      const deleted = await this.db.transaction(async (trx) => {
        await trx('report_parts').whereIn('report_id', ids).delete();
        return trx('reports').whereIn('id', ids).delete();
      });
      add(counts, 'reports', deleted);
      if (ids.length < this.batch) return;
    }
  }

  /**
   * Reduces the raw bank JSON of the company's transactions first seen before `before` to the
   * one field statements are built from: the rest (counterparty addresses, free text the bank
   * sent) is kept by no law once the booking is on record in its columns.
   */
  async trimRawTransactions(company: string, before: Date, counts: PurgeCounts): Promise<void> {
    const accounts = (await this.knex<Row>('accounts').where({ company }).pluck('id')) as string[];
    for (const account of accounts) {
      for (;;) {
        const rows = (await this.knex<Row>('transactions')
          .select('id', 'raw_json')
          .where({ account_id: account, raw_trimmed: false })
          .where('first_seen_at', '<', instant(before))
          .limit(this.batch)) as Row[];
        if (rows.length === 0) break;
        await this.db.transaction(async (trx) => {
          for (const row of rows)
            await trx('transactions')
              .where({ id: row.id })
              .update({ raw_json: trimmedRaw(row.raw_json), raw_trimmed: true });
        });
        add(counts, 'transactions trimmed', rows.length);
      }
    }
  }

  /** Purges what no law keeps and no company owns: webhook events, job runs, sent-alert marks, lapsed claims. */
  async purgeOperational(before: Date, counts: PurgeCounts): Promise<void> {
    const at = instant(before);
    await this.deleteInBatches(
      'webhook_events',
      counts,
      (q) => q.whereNotNull('processed_at').where('received_at', '<', at),
      ['event_id'],
    );
    await this.deleteInBatches('job_runs', counts, (q) =>
      q.whereNot('outcome', 'running').where('started_at', '<', at),
    );
    await this.deleteInBatches('alerts_sent', counts, (q) => q.where('sent_at', '<', at), ['finding_key']);
    await this.deleteInBatches('leases', counts, (q) => q.where('expires_at', '<', at), ['name']);
  }

  /**
   * Deletes the rows `where` selects, `batchSize` at a time by key (MariaDB has no LIMIT in an
   * IN subquery, and a DELETE … LIMIT is not portable): select a batch of keys, delete those.
   */
  private async deleteInBatches(
    table: string,
    counts: PurgeCounts,
    where: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
    key: readonly string[] = ['id'],
  ): Promise<void> {
    for (;;) {
      const keys = (await where(this.knex<Row>(table).select(...key)).limit(this.batch)) as Row[];
      if (keys.length === 0) return;
      const deleted =
        key.length === 1
          ? await this.knex(table)
              .whereIn(
                key[0]!,
                keys.map((k) => k[key[0]!] as string),
              )
              .delete()
          : await this.knex(table)
              .whereIn(
                [...key],
                keys.map((k) => key.map((c) => k[c] as string)),
              )
              .delete();
      add(counts, table, deleted);
      if (keys.length < this.batch) return;
    }
  }
}

function add(counts: PurgeCounts, table: string, n: number): void {
  if (n > 0) counts[table] = (counts[table] ?? 0) + n;
}
