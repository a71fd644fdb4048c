// Reads the payment jobs need that the repositories do not offer (yet): lookups by the bank's
// payment id and by end-to-end id across companies, the baskets of a bulk, and the time each
// line last changed. Read-only; every write goes through the repositories and their state
// machines. (Candidates to move into src/store; see the report to the lead.)
import type { Database } from '../../src/store/index.js';
import { chunks, toDate, toOptStr, toStr, type Row } from '../../src/store/rows.js';

export async function bulkIdByBankPaymentId(db: Database, bankPaymentId: string): Promise<string | undefined> {
  const row = await db.knex<Row>('bulks').select('id').where({ bank_payment_id: bankPaymentId }).first();
  return row ? toStr(row.id) : undefined;
}

/** Lines with this end-to-end id (unique per company; one company's when `company` is given). */
export async function linesByEndToEndId(db: Database, endToEndId: string, company?: string): Promise<{ id: string; company: string; bulkId?: string }[]> {
  const q = db.knex<Row>('payments').select('id', 'company', 'bulk_id').where({ end_to_end_id: endToEndId });
  if (company !== undefined) void q.where({ company });
  return (await q).map((r) => {
    const bulkId = toOptStr(r.bulk_id);
    return { id: toStr(r.id), company: toStr(r.company), ...(bulkId === undefined ? {} : { bulkId }) };
  });
}

export async function basketIdsOfBulks(db: Database, bulkIds: readonly string[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const part of chunks(bulkIds)) {
    for (const r of await db.knex<Row>('basket_items').select('basket_id').whereIn('bulk_id', part)) ids.add(toStr(r.basket_id));
  }
  return [...ids].sort();
}

/** When each line of a file last changed state (the time reported to the ERP). */
export async function lineChangeTimes(db: Database, fileId: string): Promise<Map<string, Date>> {
  const rows = await db.knex<Row>('payments').select('id', 'updated_at').where({ file_id: fileId });
  return new Map(rows.map((r) => [toStr(r.id), toDate(r.updated_at)]));
}

/** Files with at least one line that changed at or after `since` (all files when undefined). */
export async function filesChangedSince(db: Database, company: string, since: Date | undefined): Promise<string[]> {
  const q = db.knex<Row>('payments').distinct('file_id').where({ company });
  if (since !== undefined) void q.where('updated_at', '>=', since.toISOString());
  return (await q).map((r) => toStr(r.file_id)).sort();
}

/** Bulks already in a basket that is not failed or cancelled (they need no second basket). */
export async function bulkIdsInLiveBaskets(db: Database, company: string): Promise<Set<string>> {
  const rows = (await db
    .knex<Row>('basket_items')
    .join('baskets', 'baskets.id', 'basket_items.basket_id')
    .select('basket_items.bulk_id')
    .where('baskets.company', company)
    .whereNotIn('baskets.state', ['failed', 'cancelled'])) as Row[];
  return new Set(rows.map((r) => toStr(r.bulk_id)));
}

/** How many SCA links a basket has had (numbers the idempotency key of the next one). */
export async function linksIssued(db: Database, basketId: string): Promise<number> {
  const row = await db.knex<Row>('transitions').count({ n: '*' }).where({ entity_type: 'basket', entity_id: basketId, to_state: 'link_issued' }).first();
  return Number(row?.n ?? 0);
}
