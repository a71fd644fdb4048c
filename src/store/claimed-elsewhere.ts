// Rows that are work but claimed by another holder whose lease has not lapsed: what a run
// reports as "waiting on another holder's claim, until …" instead of a silent "0 to retry".
import type { Clock } from '../domain/clock.js';
import type { ClaimableTable } from './claim.js';
import type { Database } from './database.js';
import { instant, toDate, toInt, type Row } from './rows.js';

export interface ClaimedRows {
  count: number;
  /** When the last of those claims lapses unless renewed. */
  until?: Date;
}

export async function claimedElsewhere(
  db: Database,
  clock: Clock,
  table: ClaimableTable,
  where: { company: string; states: readonly string[] },
  holder: string,
): Promise<ClaimedRows> {
  const row = await db
    .knex<Row>(table)
    .where({ company: where.company })
    .whereIn('state', [...where.states])
    .whereNot({ lease_holder: holder })
    .andWhere('lease_expires_at', '>', instant(clock.now()))
    .count({ n: '*' })
    .max({ until: 'lease_expires_at' })
    .first();
  const count = row ? toInt(row.n) : 0;
  return count > 0 && row?.until ? { count, until: toDate(row.until) } : { count };
}
