// The bank has a bulk (it took the POST, a lookup found it, or a person confirmed it): the use
// case reads what the plan needs — the bulk as read (the caller's, when it has it), and its lines
// only when the answer gives them different statuses — plans the moves in the domain
// (src/domain/plans/sent-bulk-plan.ts) and hands the plan to the store, which applies it in one
// transaction and refuses it when the bulk moved meanwhile.
import { SettleError } from '../../src/domain/errors.js';
import {
  linesNeeded,
  planSentBulk,
  type SentAnswer,
  type SentBulkRead,
} from '../../src/domain/plans/sent-bulk-plan.js';
import type { Store } from '../../src/store/index.js';

export type SentStore = Pick<Store, 'bulks' | 'applyPlan'>;

/** Records `answer` for the bulk: read as `bulk`, or by its id when a string. */
export async function recordSent(store: SentStore, bulk: SentBulkRead | string, answer: SentAnswer): Promise<void> {
  const read = typeof bulk === 'string' ? await store.bulks.get(bulk) : bulk;
  if (read === undefined)
    throw new SettleError('ERR_DB_NOT_FOUND', `No bulk with id ${bulk as string}.`, { details: { id: bulk } });
  const lines = linesNeeded(read, answer) ? await store.bulks.paymentsByEndToEndId(read.id) : [];
  await store.applyPlan(planSentBulk(read, answer, lines));
}
