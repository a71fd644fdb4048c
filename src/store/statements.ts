// Accounts, transactions and balances fetched from the bank. Fetching is incremental and may
// overlap, so every write here is idempotent: a transaction is unique per account + bank
// transaction id; a pending one becomes booked in place; a booked one never goes back to
// pending when an older page is fetched again.
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Money } from '../domain/money.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import {
  amountParam,
  chunks,
  instant,
  toBigInt,
  toLocalDate,
  toOptLocalDate,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';

export interface AccountInput {
  id: string;
  company: string;
  iban?: string;
  bban?: string;
  currency?: string;
  name?: string;
  /** The servicing bank (camt.053 Acct/Svcr), from the bank directory. */
  servicerBic?: string;
  servicerName?: string;
}

export type BookingStatus = 'booked' | 'pending';

export interface StoredAccount {
  id: string;
  company: string;
  iban: string | undefined;
  currency: string | undefined;
  name: string | undefined;
  servicerBic?: string | undefined;
  servicerName?: string | undefined;
}

export interface BankTransactionInput {
  bankTransactionId: string;
  status: BookingStatus;
  amount: Money;
  bookingDate?: LocalDate;
  valueDate?: LocalDate;
  entryReference?: string;
  endToEndId?: string;
  counterpartyName?: string;
  counterpartyIban?: string;
  remittance?: string;
  /** The servicer's (archive) reference, references.accountServicerReference. */
  accountServicerRef?: string;
  /** The bank's booking text (additionalInformation). */
  additionalInfo?: string;
  /** The bank's transaction code as it sent it, e.g. PMNT-ICDT-ESCT. */
  bankTransactionCode?: string;
  /** references.instructionId: the InstrId of the instruction (pain.001). */
  instructionId?: string;
  /** The bank's payment id (for a batch-booked bulk: the bulk's). */
  bankPaymentId?: string;
  /** amountDetails.instructedAmount. */
  instructedAmount?: Money;
  /** The reason code of a returned payment. */
  returnReason?: string;
  /** The structured creditor reference (KID, RF) as the bank sent it, check digits unchecked. */
  creditorReference?: { reference: string; type: string };
  /** The bank's JSON for this transaction, kept for diagnosis and re-export. */
  raw?: unknown;
}

export interface StoredTransaction extends BankTransactionInput {
  id: string;
  accountId: string;
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface BalanceInput {
  type: string;
  referenceDate: LocalDate;
  amount: Money;
  lastChangeAt?: Date;
}

const COMPARED = [
  'status',
  'booking_date',
  'value_date',
  'amount_minor',
  'currency',
  'entry_reference',
  'end_to_end_id',
  'counterparty_name',
  'counterparty_iban',
  'remittance',
  'account_servicer_ref',
  'additional_info',
  'bank_transaction_code',
  'instruction_id',
  'bank_payment_id',
  'instructed_minor',
  'instructed_currency',
  'return_reason',
  'creditor_reference',
  'creditor_reference_type',
] as const;

export class StatementRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async upsertAccount(account: AccountInput): Promise<void> {
    const now = instant(this.clock.now());
    const row = {
      id: account.id,
      company: account.company,
      iban: account.iban ?? null,
      bban: account.bban ?? null,
      currency: account.currency ?? null,
      name: account.name ?? null,
      servicer_bic: account.servicerBic ?? null,
      servicer_name: account.servicerName ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.db
      .knex('accounts')
      .insert(row)
      .onConflict('id')
      .merge(['company', 'iban', 'bban', 'currency', 'name', 'servicer_bic', 'servicer_name', 'updated_at']);
  }

  /** Records how far transactions have been fetched, for the next incremental fetch. */
  async setFetchedTo(accountId: string, fetchedTo: Date): Promise<void> {
    await this.db
      .knex('accounts')
      .where({ id: accountId })
      .update({ transactions_fetched_to: instant(fetchedTo), last_fetched_at: instant(this.clock.now()) });
  }

  async fetchedTo(accountId: string): Promise<Date | undefined> {
    const row = await this.db.knex<Row>('accounts').select('transactions_fetched_to').where({ id: accountId }).first();
    const text = toOptStr(row?.transactions_fetched_to);
    return text === undefined ? undefined : new Date(text);
  }

  async upsertTransactions(accountId: string, transactions: readonly BankTransactionInput[]): Promise<UpsertResult> {
    const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
    const now = instant(this.clock.now());
    // The last occurrence of an id in one batch wins (a page may repeat a pending entry).
    const byId = new Map(transactions.map((t) => [t.bankTransactionId, t]));
    await this.db.transaction(async (trx) => {
      for (const part of chunks([...byId.keys()], 200)) {
        const existing = new Map<string, Row>();
        for (const r of await trx<Row>('transactions')
          .where({ account_id: accountId })
          .whereIn('bank_transaction_id', part)) {
          existing.set(toStr(r.bank_transaction_id), r);
        }
        const fresh: Row[] = [];
        for (const txId of part) {
          const tx = byId.get(txId)!;
          const row = transactionColumns(tx);
          const old = existing.get(txId);
          if (!old) {
            fresh.push({
              id: newId(this.clock),
              account_id: accountId,
              bank_transaction_id: txId,
              ...row,
              first_seen_at: now,
              updated_at: now,
            });
            continue;
          }
          // An older fetch must not turn a booked transaction back into a pending one.
          if (toStr(old.status) === 'booked' && tx.status === 'pending') {
            result.unchanged++;
            continue;
          }
          if (COMPARED.every((c) => sameValue(old[c], row[c]))) {
            result.unchanged++;
            continue;
          }
          await trx('transactions')
            .where({ id: toStr(old.id) })
            .update({ ...row, updated_at: now });
          result.updated++;
        }
        for (const rows of chunks(fresh, 40)) {
          // onConflict-ignore: another instance may have inserted the same entry meanwhile.
          await trx('transactions').insert(rows).onConflict(['account_id', 'bank_transaction_id']).ignore();
        }
        result.inserted += fresh.length;
      }
    });
    return result;
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
    const rows = await this.db
      .knex<Row>('transactions')
      .where({ account_id: accountId, status: 'booked' })
      .whereBetween('booking_date', [from, to])
      .orderBy('booking_date')
      .orderBy('id');
    const byDay = new Map<LocalDate, StoredTransaction[]>();
    for (const tx of rows.map(toStoredTransaction)) {
      const day = tx.bookingDate!;
      const list = byDay.get(day);
      if (list === undefined) byDay.set(day, [tx]);
      else list.push(tx);
    }
    return byDay;
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

  /**
   * Pending entries are a snapshot: whatever the bank no longer lists as pending has been booked
   * (usually under a new transaction id) or dropped. Removes stored pending rows of the account
   * that are not in `stillPending`; returns their bank ids.
   */
  async removeResolvedPending(accountId: string, stillPending: ReadonlySet<string>): Promise<string[]> {
    return this.db.transaction(async (trx) => {
      const rows = await trx<Row>('transactions')
        .select('id', 'bank_transaction_id')
        .where({ account_id: accountId, status: 'pending' });
      const gone = rows.filter((r) => !stillPending.has(toStr(r.bank_transaction_id)));
      if (gone.length > 0)
        await trx('transactions')
          .whereIn(
            'id',
            gone.map((r) => toStr(r.id)),
          )
          .delete();
      return gone.map((r) => toStr(r.bank_transaction_id));
    });
  }

  /** Transactions on any account carrying this end-to-end id (resolving unknown bulks, reconciliation). */
  async findByEndToEndId(endToEndId: string): Promise<StoredTransaction[]> {
    return (await this.db.knex<Row>('transactions').where({ end_to_end_id: endToEndId }).orderBy('id')).map(
      toStoredTransaction,
    );
  }

  async upsertBalances(accountId: string, balances: readonly BalanceInput[]): Promise<void> {
    const fetchedAt = instant(this.clock.now());
    const rows = balances.map((b) => ({
      account_id: accountId,
      balance_type: b.type,
      reference_date: b.referenceDate,
      amount_minor: amountParam(b.amount.minor),
      currency: b.amount.currency,
      last_change_at: b.lastChangeAt === undefined ? null : instant(b.lastChangeAt),
      fetched_at: fetchedAt,
    }));
    for (const part of chunks(rows, 50)) {
      await this.db
        .knex('balances')
        .insert(part)
        .onConflict(['account_id', 'balance_type', 'reference_date'])
        .merge(['amount_minor', 'currency', 'last_change_at', 'fetched_at']);
    }
  }

  /** The account's balances of one type with a reference date in [from, to], by date: one round trip. */
  async balancesByDay(accountId: string, type: string, from: LocalDate, to: LocalDate): Promise<Map<LocalDate, Money>> {
    return (await this.balancesOfTypes(accountId, [type], from, to)).get(type) ?? new Map();
  }

  /** Several balance types of an account in [from, to] in one read: type → day → amount. */
  async balancesOfTypes(
    accountId: string,
    types: readonly string[],
    from: LocalDate,
    to: LocalDate,
  ): Promise<Map<string, Map<LocalDate, Money>>> {
    const rows = await this.db
      .knex<Row>('balances')
      .where({ account_id: accountId })
      .whereIn('balance_type', [...types])
      .whereBetween('reference_date', [from, to]);
    const out = new Map<string, Map<LocalDate, Money>>(types.map((t) => [t, new Map()]));
    for (const r of rows)
      out
        .get(toStr(r.balance_type))
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

function transactionColumns(tx: BankTransactionInput): Row {
  return {
    status: tx.status,
    booking_date: tx.bookingDate ?? null,
    value_date: tx.valueDate ?? null,
    amount_minor: amountParam(tx.amount.minor),
    currency: tx.amount.currency,
    entry_reference: tx.entryReference ?? null,
    end_to_end_id: tx.endToEndId ?? null,
    counterparty_name: tx.counterpartyName ?? null,
    counterparty_iban: tx.counterpartyIban ?? null,
    remittance: tx.remittance ?? null,
    account_servicer_ref: tx.accountServicerRef ?? null,
    additional_info: tx.additionalInfo ?? null,
    bank_transaction_code: tx.bankTransactionCode ?? null,
    instruction_id: tx.instructionId ?? null,
    bank_payment_id: tx.bankPaymentId ?? null,
    instructed_minor: tx.instructedAmount === undefined ? null : amountParam(tx.instructedAmount.minor),
    instructed_currency: tx.instructedAmount?.currency ?? null,
    return_reason: tx.returnReason ?? null,
    creditor_reference: tx.creditorReference?.reference ?? null,
    creditor_reference_type: tx.creditorReference?.type ?? null,
    raw_json: tx.raw === undefined ? null : JSON.stringify(tx.raw),
  };
}

function sameValue(stored: unknown, next: unknown): boolean {
  if (stored === null || stored === undefined) return next === null || next === undefined;
  if (next === null || next === undefined) return false;
  return scalarText(stored) === scalarText(next);
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
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
