// Read models of the console's operator pages (src/server/console/pages/bulks.tsx, held.tsx,
// cancellations.tsx): what waits for an operator, oldest first, paged by keyset like every
// console list (src/store/console-views.ts) on the indexes of migration 0410. Nothing here writes;
// the decisions go through the same use cases as the CLI (jobs/). Today's unknown bulks
// (src/store/today-views.ts) share bulks_console_state_ix.
import type { Database } from './database.js';
import { afterAsc, decodeCursor, keysetPage, type PageQuery, type Paged } from './keyset-paging.js';
import { selectHeld, toHeld, type HeldPayment } from './held-payments.js';
import { toCancellation, type StoredCancellation } from './cancellations.js';
import { toStoredBulk, type StoredBulk } from './bulks.js';
import { toStr, type Row } from './rows.js';

/** Bulk states whose outcome at the bank a person settles by hand (`settle payments resolve`). */
export const UNRESOLVED_BULK_STATES = ['attention', 'unknown'] as const;

export class OperatorViews {
  constructor(private readonly db: Database) {}

  /** The company's bulks whose bank outcome is unknown (`unknown`, then `attention`), oldest first. */
  async unknownBulks(company: string, query: PageQuery = {}): Promise<Paged<StoredBulk>> {
    const q = this.db
      .knex<Row>('bulks')
      .select('*')
      .where({ company })
      .whereIn('state', [...UNRESOLVED_BULK_STATES])
      // By state first: the index then yields the rows in order, with no sort of the company's bulks.
      .orderBy([
        { column: 'state', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]);
    if (query.after !== undefined) afterAsc(q, ['state', 'id'], decodeCursor(query.after, 2));
    return keysetPage(q, query, toStoredBulk, (r) => [toStr(r.state), toStr(r.id)]);
  }

  /** One bulk of the company, whatever its state. */
  async bulk(company: string, id: string): Promise<StoredBulk | undefined> {
    const row = await this.db.knex<Row>('bulks').where({ company, id }).first();
    return row ? toStoredBulk(row) : undefined;
  }

  /** The company's lines held as likely duplicates and waiting for a person, oldest first. */
  async heldPayments(company: string, query: PageQuery = {}): Promise<Paged<HeldPayment>> {
    const q = selectHeld(this.db.knex)
      .where('h.company', company)
      .whereNull('h.decision')
      .orderBy([
        { column: 'h.held_at', order: 'asc' },
        { column: 'h.id', order: 'asc' },
      ]);
    if (query.after !== undefined) afterAsc(q, ['h.held_at', 'h.id'], decodeCursor(query.after, 2));
    return keysetPage(q, query, toHeld, (r) => [toStr(r.held_at), toStr(r.id)]);
  }

  /** The company's open cancellation requests (waiting for a second person, or for the bank), oldest first. */
  async openCancellations(company: string, query: PageQuery = {}): Promise<Paged<StoredCancellation>> {
    const q = this.db
      .knex<Row>('cancellations')
      .select('*')
      .where({ company })
      .whereNull('outcome')
      .orderBy([
        { column: 'requested_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]);
    if (query.after !== undefined) afterAsc(q, ['requested_at', 'id'], decodeCursor(query.after, 2));
    return keysetPage(q, query, toCancellation, (r) => [toStr(r.requested_at), toStr(r.id)]);
  }
}
