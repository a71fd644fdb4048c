// Which lines a cancellation moves (jobs/cancel): the lines named go to CANC, the bulk that held
// them is cancelled, and its other lines are queued again in a new bulk with a new key, all in
// one plan the store applies in one transaction (./plan.ts), so a crash leaves either the request
// open (the next run finishes it) or both done:
//   withdrawal   — lines not yet at the bank → CANC; a pending bulk that held them is cancelled
//                  and its other lines are queued again in a new bulk;
//   bank's CANC  — the bank confirmed CANC for the request's bulk: the named lines → CANC, the
//                  bulk → cancelled, its other lines → queued in a new bulk (they left the bank
//                  cancelled, so they are sent once more, and only once), and the bulk's file →
//                  completed when that bulk was its last one open.
import { recorded } from '../recorded-text.js';
import type { BulkState, FileState, PaymentState } from '../states.js';
import type { Plan, PlanMessage, PlanStateOf, PlanStep } from './plan.js';
import { cause as causes, type Cause } from '../transition-cause.js';

/** ISO 20022 status reason DS02 "order cancelled (by an authorised user)": the ERP sees it with each cancelled line. */
export const ORDER_CANCELLED_CODE = 'DS02';

/** What a plan needs of a cancellation request. */
export interface CancellationRequestRead {
  id: string;
  paymentIds: readonly string[];
  bulkId?: string;
  reason: string;
  requestedBy: string;
  confirmedBy?: string;
}

/** What a plan needs of a payment: its state, and its bulk's (if it is in one). */
export interface CancellationLineRead {
  id: string;
  state: PaymentState;
  bulkId?: string;
  bulkState?: BulkState;
}

/** The file of the request's bulk: its state, and how many of its other bulks are not final yet. */
export interface BulkFileRead {
  fileId: string;
  state: FileState;
  otherBulksOpen: number;
}

/**
 * Lines never sent → CANC. When they are queued in a bulk not yet sent, that bulk is cancelled
 * (the store refuses the plan if submit took it meanwhile) and its other lines are queued again
 * in a new bulk. `named` are the request's lines, `bulkLines` every line of their bulk in file order.
 */
export function planWithdrawal(
  request: CancellationRequestRead,
  named: readonly CancellationLineRead[],
  bulkLines: readonly CancellationLineRead[],
): Plan {
  const cause = cancellationCause(request);
  const queued = named.find((l) => l.bulkId !== undefined);
  const steps: PlanStep[] = [{ step: 'expect-open-cancellation', id: request.id, whenClosed: 'refuse' }];
  let resent = false;
  if (queued?.bulkId !== undefined) {
    const bulkId = queued.bulkId;
    steps.push(move('bulk', [bulkId], 'cancelled', cause, queued.bulkState && [queued.bulkState]));
    const others = otherLines(bulkLines, request.paymentIds);
    // Out of the cancelled bulk and into a new one; the named lines go queued → CANC below.
    if (others.length > 0) {
      steps.push(move('payment', ids(others), 'accepted', cause, statesOf(others)));
      steps.push({
        step: 'requeue',
        like: bulkId,
        paymentIds: ids(others),
        cause: requeueCause(bulkId, cause),
        source: 'cancel',
      });
      resent = true;
    }
  }
  steps.push({ step: 'close-cancellation', id: request.id, outcome: 'withdrawn', resent });
  steps.push({
    ...move('payment', request.paymentIds, 'CANC', cause, statesOf(named)),
    messages: cancelledMessages(request),
  });
  return { steps };
}

/**
 * The bank confirmed CANC for the request's bulk: see the file comment. Applied once: a request
 * found closed when the plan is applied was finished already, and nothing is written again.
 */
export function planCancelledAtBank(
  request: CancellationRequestRead & { bulkId: string },
  bulkLines: readonly CancellationLineRead[],
  file: BulkFileRead,
): Plan {
  const bulkId = request.bulkId;
  const cause = cancellationCause(request);
  const bankCause = causes.bankConfirmedCancel(cause);
  const others = otherLines(bulkLines, request.paymentIds);
  const steps: PlanStep[] = [
    { step: 'expect-open-cancellation', id: request.id, whenClosed: 'done' },
    { ...move('bank_status', [bulkId], 'CANC', bankCause), mode: 'tolerant' },
    move('bulk', [bulkId], 'cancelled', bankCause),
    {
      ...move('payment', request.paymentIds, 'CANC', bankCause),
      mode: 'tolerant',
      bankReported: true,
      messages: cancelledMessages(request),
    },
  ];
  if (others.length > 0)
    steps.push({
      step: 'requeue',
      like: bulkId,
      paymentIds: ids(others),
      from: statesOf(others),
      cause: requeueCause(bulkId, cause),
      source: 'cancel',
    });
  steps.push({ step: 'close-cancellation', id: request.id, outcome: 'cancelled', resent: others.length > 0 });
  // The bulk was its file's last one open: the file is done (unless it moved on meanwhile).
  if (others.length === 0 && file.state === 'submitted' && file.otherBulksOpen === 0)
    steps.push({
      ...move('payment_file', [file.fileId], 'completed', causes.lastBulkCancelled(), ['submitted']),
      otherwise: 'leave',
    });
  return { steps };
}

/** Who cancelled and why, as the transition rows and the ERP's message say it. */
export function cancellationCause(request: CancellationRequestRead): Cause {
  return causes.cancelled(request.requestedBy, request.confirmedBy, request.reason);
}

function cancelledMessages(request: CancellationRequestRead): PlanMessage[] {
  const { requestedBy, confirmedBy, reason } = request;
  const words = confirmedBy
    ? recorded('lineText.cancelledConfirmed', { requestedBy, confirmedBy, reason })
    : recorded('lineText.cancelled', { requestedBy, reason });
  return [{ category: 'INFO', code: ORDER_CANCELLED_CODE, message: cancellationCause(request).english, ...words }];
}

function requeueCause(oldBulkId: string, cause: Cause): Cause {
  return causes.requeued(oldBulkId, cause);
}

/** The bulk's lines the request does not name, in file order. */
function otherLines(bulkLines: readonly CancellationLineRead[], named: readonly string[]): CancellationLineRead[] {
  const skip = new Set(named);
  return bulkLines.filter((l) => !skip.has(l.id));
}

function ids(lines: readonly CancellationLineRead[]): string[] {
  return lines.map((l) => l.id);
}

function statesOf(lines: readonly CancellationLineRead[]): PaymentState[] {
  return [...new Set(lines.map((l) => l.state))];
}

function move<K extends 'bulk' | 'bank_status' | 'payment' | 'payment_file'>(
  kind: K,
  rows: readonly string[],
  to: PlanStateOf[K],
  cause: Cause,
  from?: readonly PlanStateOf[K][],
) {
  return { step: 'move' as const, kind, ids: rows, to, cause, source: 'cancel' as const, ...(from ? { from } : {}) };
}
