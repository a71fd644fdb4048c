// Accounts, transactions and balances fetched from the bank. Fetching is incremental and may
// overlap, so every write here is idempotent: a transaction is unique per account + bank
// transaction id; a pending one becomes booked in place; a booked one never goes back to
// pending when an older page is fetched again.
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Money } from '../domain/money.js';
import type { Database } from './database.js';
import { writeAccountStatuses } from './account-status.js';
import {
  deleteResolvedPending,
  writeAccounts,
  writeBalances,
  writeFetchedTo,
  writeTransactions,
  type AccountInput,
  type BalanceInput,
  type BankTransactionInput,
  type BookingStatus,
  type FetchedAccount,
  type StoredFetch,
  type UpsertResult,
} from './fetched-account.js';
import { chunks, instant, toBigInt, toLocalDate, toOptLocalDate, toOptStr, toStr, type Row } from './rows.js';
import { firstUnsettled, unsettledColumns } from './statement-days.js';

export type {
  AccountInput,
  BalanceInput,
  BankTransactionInput,
  BookingStatus,
  FetchedAccount,
  StoredFetch,
  UpsertResult,
};

export interface StoredAccount {
  id: string;
  company: string;
  iban: string | undefined;
  currency: string | undefined;
  name: string | undefined;
  servicerBic?: string | undefined;
  servicerName?: string | undefined;
}

export interface StoredTransaction extends BankTransactionInput {
  id: string;
  accountId: string;
}

/** A booked return of a payment, with when settle first saw it. */
export interface BookedReturn extends StoredTransaction {
  firstSeenAt: Date;
}

/** Where an account's next fetch starts from (StatementRepository.fetchStarts). */
export interface FetchStart {
  /** The watermark of its last fetch. */
  fetchedTo?: Date;
  /** Its first unsettled day: a break, or the day after the last checked one. */
  firstUnsettled?: LocalDate;
  /**
   * Only while none of its days is checked: the first day it has a closingBooked balance for. A
   * fetch stores the balances from the day before its window, so this tells where the window of
   * a fetch whose write committed but whose check did not (killed between the two) began.
   */
  firstClosing?: LocalDate;
}

export class StatementRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async upsertAccount(account: AccountInput): Promise<void> {
    await writeAccounts(this.db.knex, instant(this.clock.now()), [account]);
  }

  /**
   * What a fetch read from the bank of several accounts, written in ONE transaction: the
   * accounts, their statuses, transactions, the pending entries the bank no longer lists, their
   * balances and watermarks — one commit where there were seven an account (on MariaDB each a log
   * flush), and a statement per kind for all of them where there was one per account (the round
   * trips are most of a bureau's night's database work, docs/performance.md). Each watermark
   * moves with everything else or not at all. A result per account, in order.
   */
  async storeFetchedAll(fetched: readonly FetchedAccount[]): Promise<StoredFetch[]> {
    if (fetched.length === 0) return [];
    const now = instant(this.clock.now());
    const ids = fetched.map((f) => f.account.id);
    return this.db.transaction(async (trx) => {
      await writeAccounts(
        trx,
        now,
        fetched.map((f) => f.account),
      );
      await writeAccountStatuses(
        trx,
        now,
        fetched.flatMap(({ account, status }) =>
          status === undefined ? [] : [{ accountId: account.id, company: account.company, ...status }],
        ),
      );
      const upserted = await writeTransactions(
        trx,
        this.clock,
        fetched.map((f, i) => ({ accountId: ids[i]!, transactions: f.transactions })),
      );
      const resolved = await deleteResolvedPending(
        trx,
        fetched.map((f, i) => ({ accountId: ids[i]!, stillPending: f.stillPending })),
      );
      await writeBalances(
        trx,
        now,
        fetched.map((f, i) => ({ accountId: ids[i]!, balances: f.balances })),
      );
      await writeFetchedTo(
        trx,
        now,
        fetched.map((f, i) => ({ accountId: ids[i]!, fetchedTo: f.fetchedTo })),
      );
      return upserted.map((u, i) => ({ ...u, pendingResolved: resolved[i]! }));
    });
  }

  async fetchedTo(accountId: string): Promise<Date | undefined> {
    const row = await this.db.knex<Row>('accounts').select('transactions_fetched_to').where({ id: accountId }).first();
    const text = toOptStr(row?.transactions_fetched_to);
    return text === undefined ? undefined : new Date(text);
  }

  /**
   * Where the fetch of each of these accounts starts from, read for all of a company's accounts
   * at once: the watermark of its last fetch and its first unsettled day (statement-days.ts). An
   * account never fetched is absent.
   */
  async fetchStarts(accountIds: readonly string[]): Promise<Map<string, FetchStart>> {
    const out = new Map<string, FetchStart>();
    for (const part of chunks(accountIds))
      for (const r of (await this.db
        .knex<Row>('accounts')
        .select(
          'id',
          'transactions_fetched_to',
          unsettledColumns(this.db.knex, this.db.knex.raw('??', ['accounts.id'])),
          {
            // Off the primary key's (account, type, day) start: one look-up, however many days.
            first_closing: this.db
              .knex('balances')
              .select('reference_date')
              .where('account_id', this.db.knex.raw('??', ['accounts.id']))
              .where('balance_type', 'closingBooked')
              .orderBy('reference_date', 'asc')
              .limit(1),
          },
        )
        .whereIn('id', part)) as Row[]) {
        const watermark = toOptStr(r.transactions_fetched_to);
        const unsettled = firstUnsettled(r);
        const closing = unsettled === undefined ? toOptLocalDate(r.first_closing) : undefined;
        out.set(toStr(r.id), {
          ...(watermark === undefined ? {} : { fetchedTo: new Date(watermark) }),
          ...(unsettled === undefined ? {} : { firstUnsettled: unsettled }),
          ...(closing === undefined ? {} : { firstClosing: closing }),
        });
      }
    return out;
  }

  async upsertTransactions(accountId: string, transactions: readonly BankTransactionInput[]): Promise<UpsertResult> {
    return (await this.db.transaction((trx) => writeTransactions(trx, this.clock, [{ accountId, transactions }])))[0]!;
  }

  async listTransactions(
    accountId: string,
    filter: { status?: BookingStatus; bookingDate?: LocalDate } = {},
  ): Promise<StoredTransaction[]> {
    const q = this.db.knex<Row>('transactions').where({ account_id: accountId });
    if (filter.status !== undefined) void q.where({ status: filter.status });
    if (filter.bookingDate !== undefined) void q.where({ booking_date: filter.bookingDate });
    return (await q.orderBy('booking_date').orderBy('id')).map(toStoredTransaction);
  }

  /**
   * The account's booked transactions with a booking date in [from, to], by day, each day in the
   * order `listTransactions` gives it: one round trip for a range of days instead of one a day.
   */
  async bookedByDay(accountId: string, from: LocalDate, to: LocalDate): Promise<Map<LocalDate, StoredTransaction[]>> {
    return (await this.bookedByDayOf([accountId], from, to)).get(accountId) ?? new Map();
  }

  /**
   * The booked transactions of several accounts with a booking date in [from, to], per account
   * and day, each day's in booking order: one read for accounts that share the range (a fetch
   * checks a company's accounts together). An account with none is absent.
   */
  async bookedByDayOf(
    accountIds: readonly string[],
    from: LocalDate,
    to: LocalDate,
  ): Promise<Map<string, Map<LocalDate, StoredTransaction[]>>> {
    const out = new Map<string, Map<LocalDate, StoredTransaction[]>>();
    for (const part of chunks(accountIds))
      for (const tx of (
        await this.db
          .knex<Row>('transactions')
          .whereIn('account_id', part)
          .where({ status: 'booked' })
          .whereBetween('booking_date', [from, to])
          .orderBy('booking_date')
          .orderBy('id')
      ).map(toStoredTransaction)) {
        let byDay = out.get(tx.accountId);
        if (byDay === undefined) out.set(tx.accountId, (byDay = new Map<LocalDate, StoredTransaction[]>()));
        const day = tx.bookingDate!;
        const list = byDay.get(day);
        if (list === undefined) byDay.set(day, [tx]);
        else list.push(tx);
      }
    return out;
  }

  /** The company's accounts as last fetched, by id. */
  async listAccounts(company: string): Promise<StoredAccount[]> {
    const rows = await this.db.knex<Row>('accounts').where({ company }).orderBy('id');
    return rows.map((r) => ({
      id: toStr(r.id),
      company: toStr(r.company),
      iban: toOptStr(r.iban),
      currency: toOptStr(r.currency),
      name: toOptStr(r.name),
      servicerBic: toOptStr(r.servicer_bic),
      servicerName: toOptStr(r.servicer_name),
    }));
  }

  /** Booked transactions of a company's accounts with a booking date in [from, to], oldest first. */
  async listBookedOfCompany(
    company: string,
    from: LocalDate,
    to: LocalDate,
  ): Promise<(StoredTransaction & { accountIban: string | undefined })[]> {
    const rows = (await this.db
      .knex<Row>('transactions as t')
      .join('accounts as a', 'a.id', 't.account_id')
      .where('a.company', company)
      .where('t.status', 'booked')
      .whereBetween('t.booking_date', [from, to])
      .select('t.*', 'a.iban as account_iban')
      .orderBy('t.booking_date')
      .orderBy('t.id')) as Row[];
    return rows.map((r) => ({ ...toStoredTransaction(r), accountIban: toOptStr(r.account_iban) }));
  }

  /** True when the bank reported a balance of this type for any day before `day`. */
  async hasBalanceBefore(accountId: string, type: string, day: LocalDate): Promise<boolean> {
    const row = await this.db
      .knex<Row>('balances')
      .select('reference_date')
      .where({ account_id: accountId, balance_type: type })
      .where('reference_date', '<', day)
      .first();
    return row !== undefined;
  }

  /** Transactions on any account carrying this end-to-end id (resolving unknown bulks, reconciliation). */
  async findByEndToEndId(endToEndId: string): Promise<StoredTransaction[]> {
    return (await this.db.knex<Row>('transactions').where({ end_to_end_id: endToEndId }).orderBy('id')).map(
      toStoredTransaction,
    );
  }

  /**
   * Booked returns on the company's accounts (a return reason given, money back) of payments it
   * sent from that account: by end-to-end id, the first return of each. A payment the bank
   * returned after it was accepted is reported to the ERP as a return (jobs/status/report.ts).
   */
  async bookedReturns(
    company: string,
    payments: readonly { endToEndId: string; debtorIban: string }[],
  ): Promise<Map<string, BookedReturn>> {
    const out = new Map<string, BookedReturn>();
    const wanted = new Set(payments.map((p) => `${p.endToEndId}\u0000${p.debtorIban}`));
    for (const part of chunks([...new Set(payments.map((p) => p.endToEndId))]))
      for (const r of (await this.db
        .knex<Row>('transactions as t')
        .join('accounts as a', 'a.id', 't.account_id')
        .where('a.company', company)
        .where('t.status', 'booked')
        .whereNotNull('t.return_reason')
        .where('t.amount_minor', '>', 0)
        .whereIn('t.end_to_end_id', part)
        .select('t.*', 'a.iban as account_iban')
        .orderBy('t.booking_date')
        .orderBy('t.id')) as Row[]) {
        const tx = toStoredTransaction(r);
        const key = `${tx.endToEndId}\u0000${toOptStr(r.account_iban)}`;
        if (!wanted.has(key) || out.has(tx.endToEndId!)) continue;
        out.set(tx.endToEndId!, { ...tx, firstSeenAt: new Date(toStr(r.first_seen_at)) });
      }
    return out;
  }

  /** The company's payment files a booked return first seen since `since` concerns (status reports). */
  async filesReturnedSince(company: string, since: Date): Promise<string[]> {
    const rows: Row[] = await this.db
      .knex('transactions as t')
      .join('accounts as a', 'a.id', 't.account_id')
      .join('payments as p', function () {
        this.on('p.end_to_end_id', '=', 't.end_to_end_id').andOn('p.debtor_iban', '=', 'a.iban');
      })
      .join('payment_files as f', 'f.id', 'p.file_id')
      .where('a.company', company)
      .where('f.company', company)
      .where('p.company', company)
      .where('t.status', 'booked')
      .whereNotNull('t.return_reason')
      .where('t.first_seen_at', '>=', instant(since))
      .distinct('p.file_id');
    return rows.map((r) => toStr(r.file_id)).sort();
  }

  async upsertBalances(accountId: string, balances: readonly BalanceInput[]): Promise<void> {
    await writeBalances(this.db.knex, instant(this.clock.now()), [{ accountId, balances }]);
  }

  /** The account's balances of one type with a reference date in [from, to], by date: one round trip. */
  async balancesByDay(accountId: string, type: string, from: LocalDate, to: LocalDate): Promise<Map<LocalDate, Money>> {
    return (await this.balancesOfTypesOf([accountId], [type], from, to)).get(accountId)!.get(type)!;
  }

  /** Several balance types of several accounts that share the range, in one read: account → type → day → amount. */
  async balancesOfTypesOf(
    accountIds: readonly string[],
    types: readonly string[],
    from: LocalDate,
    to: LocalDate,
  ): Promise<Map<string, Map<string, Map<LocalDate, Money>>>> {
    const out = new Map(
      accountIds.map((id) => [id, new Map<string, Map<LocalDate, Money>>(types.map((t) => [t, new Map()]))]),
    );
    for (const part of chunks(accountIds))
      for (const r of await this.db
        .knex<Row>('balances')
        .whereIn('account_id', part)
        .whereIn('balance_type', [...types])
        .whereBetween('reference_date', [from, to]))
        out
          .get(toStr(r.account_id))
          ?.get(toStr(r.balance_type))
          ?.set(toLocalDate(r.reference_date), { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) });
    return out;
  }

  async getBalance(accountId: string, type: string, referenceDate: LocalDate): Promise<Money | undefined> {
    const row = await this.db
      .knex<Row>('balances')
      .where({ account_id: accountId, balance_type: type, reference_date: referenceDate })
      .first();
    return row ? { minor: toBigInt(row.amount_minor), currency: toStr(row.currency) } : undefined;
  }
}

function toStoredTransaction(r: Row): StoredTransaction {
  const opt = <K extends string, V>(key: K, value: V | undefined) =>
    value === undefined ? {} : ({ [key]: value } as Record<K, V>);
  return {
    id: toStr(r.id),
    accountId: toStr(r.account_id),
    bankTransactionId: toStr(r.bank_transaction_id),
    status: toStr(r.status) as BookingStatus,
    amount: { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) },
    ...opt('bookingDate', toOptLocalDate(r.booking_date)),
    ...opt('valueDate', toOptLocalDate(r.value_date)),
    ...opt('entryReference', toOptStr(r.entry_reference)),
    ...opt('endToEndId', toOptStr(r.end_to_end_id)),
    ...opt('counterpartyName', toOptStr(r.counterparty_name)),
    ...opt('counterpartyIban', toOptStr(r.counterparty_iban)),
    ...opt('remittance', toOptStr(r.remittance)),
    ...opt('accountServicerRef', toOptStr(r.account_servicer_ref)),
    ...opt('additionalInfo', toOptStr(r.additional_info)),
    ...opt('bankTransactionCode', toOptStr(r.bank_transaction_code)),
    ...opt('proprietaryBankTransactionCode', toOptStr(r.proprietary_bank_transaction_code)),
    ...opt('instructionId', toOptStr(r.instruction_id)),
    ...opt('bankPaymentId', toOptStr(r.bank_payment_id)),
    ...opt('returnReason', toOptStr(r.return_reason)),
    ...opt(
      'instructedAmount',
      r.instructed_minor === null || r.instructed_minor === undefined
        ? undefined
        : { minor: toBigInt(r.instructed_minor), currency: toStr(r.instructed_currency) },
    ),
    ...opt('creditorReference', creditorReferenceOf(r)),
    ...opt(
      'raw',
      r.raw_json === null || r.raw_json === undefined ? undefined : (JSON.parse(toStr(r.raw_json)) as unknown),
    ),
  };
}

function creditorReferenceOf(r: Row): { reference: string; type: string } | undefined {
  const reference = toOptStr(r.creditor_reference);
  return reference === undefined ? undefined : { reference, type: toOptStr(r.creditor_reference_type) ?? 'SCOR' };
}
