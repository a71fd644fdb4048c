// Reads (and the one pending clean-up) the statement jobs need that the store's repositories
// do not offer yet. They use the Database handle's knex on existing tables only; the lead may
// move them into src/store/statements.ts, statement-days.ts and exports.ts (see the report).
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import type { Database } from '../../src/store/database.js';
import { toStr, type Row } from '../../src/store/rows.js';

export interface StoredAccount {
  id: string;
  company: string;
  iban?: string;
  currency?: string;
  name?: string;
}

export async function accountsOfCompany(db: Database, company: string): Promise<StoredAccount[]> {
  const rows = await db.knex<Row>('accounts').where({ company }).orderBy('id');
  return rows.map((r) => {
    const out: StoredAccount = { id: toStr(r.id), company: toStr(r.company) };
    if (typeof r.iban === 'string') out.iban = r.iban;
    if (typeof r.currency === 'string') out.currency = r.currency;
    if (typeof r.name === 'string') out.name = r.name;
    return out;
  });
}

/** True when the bank reported a closing balance of this type for any day before `day`. */
export async function hasBalanceBefore(db: Database, accountId: string, type: string, day: LocalDate): Promise<boolean> {
  const row = await db.knex<Row>('balances').select('reference_date').where({ account_id: accountId, balance_type: type }).where('reference_date', '<', day).first();
  return row !== undefined;
}

/**
 * Where the next fetch of an account must start at the latest, whatever its watermark says: the
 * first day whose continuity is broken (so a correction by the bank is picked up and the break
 * keeps being reported until then), or the day after the last day checked (so a day the bank
 * was late to close is never skipped). undefined before the first check.
 */
export async function firstUnsettledDay(db: Database, accountId: string): Promise<LocalDate | undefined> {
  const broken = await db.knex<Row>('statement_days').min({ day: 'day' }).where({ account_id: accountId }).whereIn('continuity', ['gap', 'mismatch']).first();
  const last = await db.knex<Row>('statement_days').max({ day: 'day' }).where({ account_id: accountId }).first();
  const candidates = [broken?.day, typeof last?.day === 'string' ? addDays(last.day as LocalDate, 1) : undefined].filter((d): d is LocalDate => typeof d === 'string');
  return candidates.sort()[0];
}

/** The periods already exported for a format and account (any version). */
export async function exportedPeriods(db: Database, format: string, accountId: string): Promise<string[]> {
  const rows = await db.knex<Row>('exports').distinct('period').where({ format, subject_id: accountId });
  return rows.map((r) => toStr(r.period));
}

/**
 * Pending entries are a snapshot: whatever the bank no longer lists as pending has been booked
 * (usually under a new transaction id carrying the same paymentId) or dropped. Removes stored
 * pending rows of the account that are not in `stillPending`; returns their bank ids.
 */
export async function removeResolvedPending(db: Database, accountId: string, stillPending: ReadonlySet<string>): Promise<string[]> {
  return db.transaction(async (trx) => {
    const rows = await trx<Row>('transactions').select('id', 'bank_transaction_id').where({ account_id: accountId, status: 'pending' });
    const gone = rows.filter((r) => !stillPending.has(toStr(r.bank_transaction_id)));
    if (gone.length > 0) await trx('transactions').whereIn('id', gone.map((r) => toStr(r.id))).delete();
    return gone.map((r) => toStr(r.bank_transaction_id));
  });
}
