// A new bulk's row and its Idempotency-Key: planned (bulks.ts, createBulks) or queued again after
// a cancellation (cancellations.ts, requeue). The key is the file's for the bulk's position (the
// same in every build and after a restore, so the bank answers a bulk sent again with the first
// answer), or the company's own when another company's bulk holds that key: its file had the
// same bytes, and a bureau's companies share one subscription, where one key is one payment.
import type { Knex } from 'knex';
import { bulkIdempotencyKey, companyBulkIdempotencyKey } from './ids.js';
import { forUpdate, isUniqueViolation, toStr, type Row } from './rows.js';

/**
 * The key a new bulk of `company` takes. `locking` reads the key's holder with a locking read,
 * which sees what another transaction committed after this one's snapshot was taken.
 */
async function keyOfNewBulk(
  trx: Knex.Transaction,
  company: string,
  fileSha256: string,
  position: number,
  locking = false,
): Promise<string> {
  const key = bulkIdempotencyKey(fileSha256, position);
  const read = trx<Row>('bulks').select('company').where({ idempotency_key: key });
  const holder = await (locking ? forUpdate(trx, read) : read).first();
  return holder === undefined || toStr(holder.company) === company
    ? key
    : companyBulkIdempotencyKey(company, fileSha256, position);
}

/**
 * Inserts a new bulk (`bulk` without its key) under the key keyOfNewBulk chooses. That read
 * cannot see a bulk another instance has inserted and not yet committed: two companies planning
 * byte-identical files at the same moment both choose the file's key, and the second INSERT
 * meets the unique key once the first commits (MariaDB rolls back that statement only). Chosen
 * again with a locking read, the bulk takes its company's own key, as it would have had it come a
 * moment later — not a failed submit step. Any other refusal is thrown as it came.
 */
export async function insertNewBulk(trx: Knex.Transaction, bulk: Row, fileSha256: string): Promise<void> {
  const company = toStr(bulk.company);
  const position = Number(bulk.position);
  const key = await keyOfNewBulk(trx, company, fileSha256, position);
  try {
    await trx('bulks').insert({ ...bulk, idempotency_key: key });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const again = await keyOfNewBulk(trx, company, fileSha256, position, true);
    if (again === key) throw error;
    await trx('bulks').insert({ ...bulk, idempotency_key: again });
  }
}
