// What one fetch of an account read from the bank, as rows: the account, its transactions (a
// pending one becomes booked in place; a booked one never goes back to pending), the pending
// entries the bank no longer lists, its balances and the watermark. Each write takes the
// accounts to write together and the connection or transaction to run on, so the fetch writes
// the accounts of a company it read in one go in one transaction, a statement per kind rather
// than per account (StatementRepository.storeFetchedAll), and a single write can still run on
// its own.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Money } from '../domain/money.js';
import { newId } from './ids.js';
import { amountParam, chunks, IDS_PER_STATEMENT, instant, toStr, type Row } from './rows.js';

/** A connection or a transaction: where a write runs. */
type Executor = Knex | Knex.Transaction;

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
  /** The bank's own code beside an ISO bankTransactionCode (proprietaryBankTransactionCode). */
  proprietaryBankTransactionCode?: string;
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

/** Everything one fetch of an account read from the bank, to be written together. */
export interface FetchedAccount {
  account: AccountInput;
  /** The bank's status of the account as of `at`, when it said one. */
  status?: { status: string; at: Date };
  transactions: readonly BankTransactionInput[];
  /** The bank ids of the entries the bank still lists as pending. */
  stillPending: ReadonlySet<string>;
  balances: readonly BalanceInput[];
  /** The new watermark: transactions are fetched up to this instant. */
  fetchedTo: Date;
}

export interface StoredFetch extends UpsertResult {
  /** Bank ids of the pending entries the bank no longer lists (booked or dropped), removed. */
  pendingResolved: string[];
}

/** The accounts' rows, inserted or brought up to date: one statement per hundred accounts. */
export async function writeAccounts(q: Executor, now: string, accounts: readonly AccountInput[]): Promise<void> {
  const rows = accounts.map((account) => ({
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
  }));
  for (const part of chunks(rows, 100))
    await q('accounts')
      .insert(part)
      .onConflict('id')
      .merge(['company', 'iban', 'bban', 'currency', 'name', 'servicer_bic', 'servicer_name', 'updated_at']);
}

/**
 * How far each account's transactions have been fetched, for its next incremental fetch: one
 * UPDATE per watermark (accounts read in one go share theirs, jobs/statements/fetch.ts).
 */
export async function writeFetchedTo(
  q: Executor,
  now: string,
  accounts: readonly { accountId: string; fetchedTo: Date }[],
): Promise<void> {
  const byWatermark = new Map<string, string[]>();
  for (const { accountId, fetchedTo } of accounts) {
    const at = instant(fetchedTo);
    const ids = byWatermark.get(at);
    if (ids === undefined) byWatermark.set(at, [accountId]);
    else ids.push(accountId);
  }
  for (const [at, ids] of byWatermark)
    for (const part of chunks(ids, IDS_PER_STATEMENT))
      await q('accounts').whereIn('id', part).update({ transactions_fetched_to: at, last_fetched_at: now });
}

/** One account's transactions as the bank listed them. */
export interface AccountTransactions {
  accountId: string;
  transactions: readonly BankTransactionInput[];
}

/**
 * Inserts new transactions and updates changed ones, for several accounts at once (the existing
 * rows are read two hundred at a time, whatever their accounts); a result per account, in order.
 * Run it in a transaction.
 */
export async function writeTransactions(
  trx: Knex.Transaction,
  clock: Clock,
  accounts: readonly AccountTransactions[],
): Promise<UpsertResult[]> {
  const results: UpsertResult[] = accounts.map(() => ({ inserted: 0, updated: 0, unchanged: 0 }));
  const now = instant(clock.now());
  const wanted: { at: number; accountId: string; txId: string; tx: BankTransactionInput }[] = [];
  accounts.forEach(({ accountId, transactions }, at) => {
    // The last occurrence of an id in one batch wins (a page may repeat a pending entry).
    for (const [txId, tx] of new Map(transactions.map((t) => [t.bankTransactionId, t])))
      wanted.push({ at, accountId, txId, tx });
  });
  for (const part of chunks(wanted, 200)) {
    // Both lists: the read may return another of these accounts' entry with the same bank id,
    // which no pair below asks for.
    const existing = new Map<string, Row>();
    for (const r of await trx<Row>('transactions')
      .whereIn('account_id', [...new Set(part.map((w) => w.accountId))])
      .whereIn('bank_transaction_id', [...new Set(part.map((w) => w.txId))]))
      existing.set(pairKey(toStr(r.account_id), toStr(r.bank_transaction_id)), r);
    const fresh: Row[] = [];
    for (const { at, accountId, txId, tx } of part) {
      const result = results[at]!;
      const row = transactionColumns(tx);
      const old = existing.get(pairKey(accountId, txId));
      if (!old) {
        fresh.push({
          id: newId(clock),
          account_id: accountId,
          bank_transaction_id: txId,
          ...row,
          first_seen_at: now,
          updated_at: now,
        });
        result.inserted++;
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
  }
  return results;
}

function pairKey(accountId: string, bankTransactionId: string): string {
  return `${accountId}\u0000${bankTransactionId}`;
}

/**
 * Pending entries are a snapshot: whatever the bank no longer lists as pending has been booked
 * (usually under a new transaction id) or dropped. Removes the stored pending rows of each
 * account that are not in its `stillPending`; returns their bank ids, per account in order.
 * Run it in a transaction.
 */
export async function deleteResolvedPending(
  trx: Knex.Transaction,
  accounts: readonly { accountId: string; stillPending: ReadonlySet<string> }[],
): Promise<string[][]> {
  const at = new Map(accounts.map(({ accountId }, i) => [accountId, i]));
  const resolved: string[][] = accounts.map(() => []);
  const gone: string[] = [];
  for (const part of chunks([...at.keys()], IDS_PER_STATEMENT))
    for (const r of await trx<Row>('transactions')
      .select('id', 'account_id', 'bank_transaction_id')
      .whereIn('account_id', part)
      .where({ status: 'pending' })) {
      const i = at.get(toStr(r.account_id))!;
      const bankId = toStr(r.bank_transaction_id);
      if (accounts[i]!.stillPending.has(bankId)) continue;
      resolved[i]!.push(bankId);
      gone.push(toStr(r.id));
    }
  for (const part of chunks(gone, IDS_PER_STATEMENT)) await trx('transactions').whereIn('id', part).delete();
  return resolved;
}

/** The accounts' balances, inserted or brought up to date: one statement per fifty balances. */
export async function writeBalances(
  q: Executor,
  fetchedAt: string,
  accounts: readonly { accountId: string; balances: readonly BalanceInput[] }[],
): Promise<void> {
  const rows = accounts.flatMap(({ accountId, balances }) =>
    balances.map((b) => ({
      account_id: accountId,
      balance_type: b.type,
      reference_date: b.referenceDate,
      amount_minor: amountParam(b.amount.minor),
      currency: b.amount.currency,
      last_change_at: b.lastChangeAt === undefined ? null : instant(b.lastChangeAt),
      fetched_at: fetchedAt,
    })),
  );
  for (const part of chunks(rows, 50))
    await q('balances')
      .insert(part)
      .onConflict(['account_id', 'balance_type', 'reference_date'])
      .merge(['amount_minor', 'currency', 'last_change_at', 'fetched_at']);
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
  'proprietary_bank_transaction_code',
  'instruction_id',
  'bank_payment_id',
  'instructed_minor',
  'instructed_currency',
  'return_reason',
  'creditor_reference',
  'creditor_reference_type',
] as const;

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
    proprietary_bank_transaction_code: tx.proprietaryBankTransactionCode ?? null,
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
