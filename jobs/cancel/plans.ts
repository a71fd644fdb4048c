// A cancellation's moves, read → plan → apply: the lines and bulk it reads through the store, the
// plan src/domain/plans/cancellation-plan.ts decides from them, and the store's applyPlan, which
// writes the plan in one transaction with the request's outcome (or refuses it whole when a row
// moved meanwhile: submit took the bulk, another run finished the request).
import { SettleError } from '../../src/domain/errors.js';
import { planCancelledAtBank, planWithdrawal } from '../../src/domain/plans/cancellation-plan.js';
import type { Store, StoredCancellation } from '../../src/store/index.js';

export type PlanStore = Pick<Store, 'cancellations' | 'applyPlan'>;

/**
 * Lines never sent: → CANC. When they were queued in a bulk not yet sent, that bulk is cancelled
 * (ERR_STATE_TRANSITION_ILLEGAL if submit took it meanwhile) and its other lines are queued again
 * in a new bulk. ERR_CANCEL_REFUSED when the request was closed meanwhile.
 */
export async function withdraw(store: PlanStore, id: string): Promise<StoredCancellation> {
  const request = await openRequest(store, id);
  if (request.outcome !== undefined)
    throw new SettleError('ERR_CANCEL_REFUSED', `cancellation ${id} was already ${request.outcome}`);
  const named = await store.cancellations.paymentsByIds(request.paymentIds);
  const bulkId = named.find((l) => l.bulkId !== undefined)?.bulkId;
  const bulkLines = bulkId === undefined ? [] : await store.cancellations.paymentsOfBulk(bulkId);
  await store.applyPlan(planWithdrawal(request, named, bulkLines));
  return (await store.cancellations.get(id))!;
}

/**
 * The bank confirmed CANC for the request's bulk: its named lines → CANC, the bulk → cancelled,
 * and its other lines → queued in a new bulk with a new idempotency key, in one transaction.
 * Idempotent: a request already closed is returned as it is.
 */
export async function completeAtBank(store: PlanStore, id: string): Promise<StoredCancellation> {
  const request = await openRequest(store, id);
  if (request.outcome !== undefined) return request;
  const bulkId = request.bulkId;
  if (bulkId === undefined) throw notFound(id);
  const bulkLines = await store.cancellations.paymentsOfBulk(bulkId);
  const file = await store.cancellations.fileOfBulk(bulkId);
  await store.applyPlan(planCancelledAtBank({ ...request, bulkId }, bulkLines, file));
  return (await store.cancellations.get(id))!;
}

async function openRequest(store: PlanStore, id: string): Promise<StoredCancellation> {
  const request = await store.cancellations.get(id);
  if (!request) throw notFound(id);
  return request;
}

function notFound(id: string): SettleError {
  return new SettleError('ERR_CANCEL_NOT_FOUND', `No cancellation request ${id}; see settle payments cancel --help`);
}
