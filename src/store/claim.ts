// Work claims (architecture §2.5): a job takes rows to work on with a lease, so several settle
// instances on one database never do the same row twice, and a crashed holder's rows become
// claimable again when its lease expires.
//   One way on both dialects: read candidate ids (free: no lease, or an expired one), take
//   them with a conditional UPDATE that matches only rows still free, mark them with a token
//   of this claim, and read back the rows carrying that token. When another claimer took some
//   candidates first, look again while free rows remain. No row lock is skipped: SELECT … FOR
//   UPDATE SKIP LOCKED (the former MariaDB way) passed over rows another writer had locked for
//   a moment (a status write, a renewal), so a claimer saw "no work" and the rows waited for
//   the next night. The conditional UPDATE waits for such a lock instead, then takes the row
//   only if it is still free.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { Database } from './database.js';
import { againOnDeadlock } from './deadlock.js';
import { chunks, instant, toStr, type Row } from './rows.js';

/** Tables with `id`, `lease_holder`, `lease_expires_at` and `lease_token` columns. */
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
  const now = instant(clock.now());
  const token = randomUUID();
  const lease = {
    lease_holder: options.holder,
    lease_expires_at: instant(new Date(clock.now().getTime() + options.leaseMs)),
    lease_token: token,
  };
  // Work rows that are free now; used for the candidates and again as the UPDATE's condition.
  const free = (q: Knex.QueryBuilder): void => {
    for (const [column, value] of Object.entries(options.where ?? {})) {
      if (Array.isArray(value)) void q.whereIn(column, value as Scalar[]);
      else void q.where(column, value as Scalar);
    }
    if (options.excludeIds !== undefined && options.excludeIds.length > 0)
      void q.whereNotIn('id', [...options.excludeIds]);
    void q.where((w) => void w.whereNull('lease_expires_at').orWhere('lease_expires_at', '<=', now));
  };

  let taken = 0;
  // Ends: each round either takes rows, or finds that others took every candidate it read
  // (they are then no longer free), or finds no candidate at all.
  while (taken < options.limit) {
    const wanted = options.limit - taken;
    const candidates = (await db.knex(table).select('id').modify(free).orderBy('id').limit(wanted)) as Row[];
    const ids = candidates.map((r) => toStr(r.id));
    if (ids.length === 0) break;
    // One statement, atomic on its own (no BEGIN and COMMIT around it), run again if MariaDB
    // picks it as a deadlock victim; SQLite has one writer at a time.
    const won = await againOnDeadlock(() => db.knex(table).whereIn('id', ids).modify(free).update(lease));
    taken += won;
    if (won === ids.length && ids.length < wanted) break; // every free row there was is ours now
  }
  if (taken === 0) return [];
  return db.knex<Row>(table).where({ lease_token: token }).orderBy('id');
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
      .update({ lease_holder: null, lease_expires_at: null, lease_token: null });
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
