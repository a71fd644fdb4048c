// Work claims (architecture §2.5): a job takes rows to work on with a lease, so several settle
// instances on one database never do the same row twice, and a crashed holder's rows become
// claimable again when its lease expires.
//   MySQL/MariaDB: SELECT … FOR UPDATE SKIP LOCKED in a transaction, then set the lease
//   columns; concurrent claimers skip each other's locked rows instead of waiting.
//   SQLite: one writer at a time, so a single UPDATE … WHERE id IN (SELECT … LIMIT n)
//   RETURNING * is atomic by itself (SQLite ≥ 3.35).
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { Database } from './database.js';
import { chunks, instant, toStr, type Row } from './rows.js';

/** Tables with `id`, `lease_holder` and `lease_expires_at` columns. */
export const CLAIMABLE_TABLES = ['bulks', 'payment_files', 'baskets'] as const;
export type ClaimableTable = (typeof CLAIMABLE_TABLES)[number];

type Scalar = string | number | boolean | null;
/** Which rows are work: a column equal to a value, or in a list, e.g. { state: ['pending', 'sending'] }. */
export type ClaimWhere = Readonly<Record<string, Scalar | readonly Scalar[]>>;

export interface ClaimOptions {
  where?: ClaimWhere;
  /** Rows not to take again (e.g. those this run already tried). */
  excludeIds?: readonly string[];
  limit: number;
  /** Who claims: an instance id plus run id, e.g. "host-1:run-42". */
  holder: string;
  leaseMs: number;
}

/** Claims up to `limit` unleased (or lease-expired) rows, oldest first; returns them as now leased. */
export async function claim(db: Database, clock: Clock, table: ClaimableTable, options: ClaimOptions): Promise<Row[]> {
  if (!(CLAIMABLE_TABLES as readonly string[]).includes(table)) {
    throw new SettleError('ERR_DB_NOT_CLAIMABLE', `Rows of "${String(table)}" cannot be claimed.`);
  }
  if (options.limit <= 0) return [];
  const now = clock.now();
  const lease = { lease_holder: options.holder, lease_expires_at: instant(new Date(now.getTime() + options.leaseMs)) };
  const candidates = (knex: Knex | Knex.Transaction) => {
    const q = knex<Row>(table).select('id');
    for (const [column, value] of Object.entries(options.where ?? {})) {
      if (Array.isArray(value)) void q.whereIn(column, value as Scalar[]);
      else void q.where(column, value as Scalar);
    }
    if (options.excludeIds !== undefined && options.excludeIds.length > 0)
      void q.whereNotIn('id', [...options.excludeIds]);
    return q
      .where((w) => void w.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', instant(now)))
      .orderBy('id')
      .limit(options.limit);
  };

  if (db.dialect === 'sqlite') {
    const rows: Row[] = await db.knex<Row>(table).whereIn('id', candidates(db.knex)).update(lease).returning('*');
    return rows.sort((a, b) => toStr(a.id).localeCompare(toStr(b.id)));
  }
  // READ COMMITTED: no gap locks, so a claim never blocks inserts of new work rows.
  return db.knex.transaction(
    async (trx) => {
      const picked = await candidates(trx).forUpdate().skipLocked();
      const ids = picked.map((r) => toStr(r.id));
      if (ids.length === 0) return [];
      await trx(table).whereIn('id', ids).update(lease);
      return trx<Row>(table).whereIn('id', ids).orderBy('id');
    },
    { isolationLevel: 'read committed' },
  );
}

/** Gives claimed rows back before their lease ends (work done, or handed over). */
export async function releaseClaim(
  db: Database,
  table: ClaimableTable,
  ids: readonly string[],
  holder: string,
): Promise<number> {
  let released = 0;
  for (const part of chunks(ids)) {
    released += await db
      .knex(table)
      .whereIn('id', part)
      .andWhere({ lease_holder: holder })
      .update({ lease_holder: null, lease_expires_at: null });
  }
  return released;
}

/** Extends the holder's lease on rows it still holds; returns how many it still holds. */
export async function renewClaim(
  { db, clock }: { db: Database; clock: Clock },
  table: ClaimableTable,
  ids: readonly string[],
  { holder, leaseMs }: { holder: string; leaseMs: number },
): Promise<number> {
  const until = instant(new Date(clock.now().getTime() + leaseMs));
  let renewed = 0;
  for (const part of chunks(ids)) {
    renewed += await db
      .knex(table)
      .whereIn('id', part)
      .andWhere({ lease_holder: holder })
      .update({ lease_expires_at: until });
  }
  return renewed;
}
