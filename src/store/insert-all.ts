// Inserting many rows all or none, in as few round trips as the engines allow.
import type { Database } from './database.js';
import { againOnDeadlock } from './deadlock.js';
import { chunks, type Row } from './rows.js';

/**
 * Inserts `rows` into `table` all or none: one statement when they fit in one (atomic by itself,
 * no BEGIN and COMMIT around it), else `size` at a time in one transaction. A unique violation
 * is thrown to the caller with nothing inserted.
 */
export async function insertAll(db: Database, table: string, rows: readonly Row[], size = 200): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length <= size) {
    // On its own: several instances' multi-row INSERTs into one index can deadlock (deadlock.ts).
    await againOnDeadlock(() => db.knex(table).insert(rows));
    return;
  }
  await db.transaction(async (trx) => {
    for (const part of chunks(rows, size)) await trx(table).insert(part);
  });
}
