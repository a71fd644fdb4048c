// The mark a move of payments leaves on their files (`payment_files.lines_changed_at`,
// migration 0530), written by the transition function (src/store/transitions.ts), the one writer
// of payments' states, with every move of lines, so no change passes it by.
import type { Knex } from 'knex';
import { placeholders, readRows, write } from './direct-sql.js';
import { chunks, IDS_PER_STATEMENT, instant, toStr } from './rows.js';

/**
 * Payments moved at `at`: their files' `lines_changed_at` takes that time, so the status
 * report finds the files whose lines changed through an index on the files
 * (PaymentRepository.filesChangedSince) instead of reading every line's `updated_at`. The files are
 * found first (from the plan's file, the bulk or the moved lines) and written by key: MariaDB
 * 10.11 runs `UPDATE … WHERE id IN (SELECT …)` as a walk of the whole table that locks every row
 * it passes (it has no semi-join for a single-table UPDATE), so instances waited on each other's
 * files, and the walk grew with every file kept. Lines are always moved before their files, so a
 * file's row lock is taken after its lines'.
 */
export async function markLinesChanged(
  trx: Knex.Transaction,
  at: Date,
  of: { fileId: string } | { bulkId: string } | { lines: readonly string[] },
): Promise<void> {
  const files = new Set<string>();
  if ('fileId' in of) files.add(of.fileId);
  else if ('bulkId' in of)
    for (const r of await readRows(trx, 'select file_id from bulks where id = ?', [of.bulkId]))
      files.add(toStr(r.file_id));
  else
    for (const part of chunks(of.lines, IDS_PER_STATEMENT))
      for (const r of await readRows(
        trx,
        `select distinct file_id from payments where id in (${placeholders(part.length)})`,
        part,
      ))
        files.add(toStr(r.file_id));
  for (const part of chunks([...files].sort()))
    await write(trx, `update payment_files set lines_changed_at = ? where id in (${placeholders(part.length)})`, [
      instant(at),
      ...part,
    ]);
}
