// The two steps around a cancellation that a person takes in the web console before and after
// asking (jobs/cancel/cancel.ts does the cancelling): the preview — what would be cancelled,
// every line of a bulk the bank already has, or why it cannot be — and, where four eyes are
// configured, a second person's "no" to an open request. Neither sends anything to the bank.
import { SettleError } from '../../src/domain/errors.js';
import type { PaymentToCancel, StoredCancellation } from '../../src/store/index.js';
import {
  atBankBulk,
  audit,
  companyOf,
  refuseIfTooLate,
  resolvePayments,
  type CancelDeps,
  type CancelInput,
} from './cancel.js';

export interface CancellationPreview {
  company: string;
  /** The lines named. */
  lines: PaymentToCancel[];
  /** Every line of the bulk the bank would cancel (empty when the lines were never sent). */
  bulkLines: PaymentToCancel[];
  /** A second person must confirm (payments.cancelFourEyes). */
  fourEyes: boolean;
  /** A request for these lines that is already open: asking again continues it. */
  open?: StoredCancellation;
}

/**
 * What `cancelPayment` would cancel, without changing anything: the same lookup and the same
 * refusals (ERR_CANCEL_NOT_FOUND, ERR_CANCEL_REFUSED with the reason, e.g. ACSP).
 */
export async function previewCancellation(
  deps: Pick<CancelDeps, 'store'>,
  input: Pick<CancelInput, 'ref' | 'companies' | 'company'>,
): Promise<CancellationPreview> {
  const lines = await resolvePayments(deps, input);
  const company = companyOf(input.companies, lines[0]!.company);
  const [open] = await deps.store.cancellations.openFor(
    company.id,
    lines.map((l) => l.id),
  );
  if (!open) refuseIfTooLate(lines);
  const bulkId = atBankBulk(lines);
  const bulkLines = bulkId === undefined ? [] : await deps.store.cancellations.paymentsOfBulk(bulkId);
  return {
    company: company.id,
    lines,
    bulkLines,
    fourEyes: company.payments.cancelFourEyes,
    ...(open ? { open } : {}),
  };
}

export interface DeclineInput {
  requestId: string;
  reason: string;
  actor: string;
  origin: string;
  /** Limits the request to one company (the console's chosen one). */
  company?: string;
}

/**
 * Four eyes: a person declines an open request that is still waiting for its confirmation;
 * nothing was sent, nothing moves, and the request is closed as `declined` with who and why.
 * The one who asked may decline (withdraw) their own request: saying no needs no second person.
 */
export async function declineCancellation(
  deps: Pick<CancelDeps, 'store'>,
  input: DeclineInput,
): Promise<StoredCancellation> {
  const reason = input.reason.trim();
  if (reason === '') throw new SettleError('ERR_USAGE', 'say why the cancellation is declined');
  const request = await deps.store.cancellations.get(input.requestId);
  if (!request || (input.company !== undefined && request.company !== input.company))
    throw new SettleError('ERR_CANCEL_NOT_FOUND', `no cancellation request ${input.requestId}`);
  const closed =
    request.outcome !== undefined || !(await deps.store.cancellations.decline(request.id, input.actor, reason));
  if (closed) {
    const now = await deps.store.cancellations.get(request.id);
    throw new SettleError(
      'ERR_CANCEL_NOT_FOUND',
      now?.outcome
        ? `cancellation ${request.id} was already ${now.outcome}`
        : `cancellation ${request.id} was confirmed and sent to the bank; it can no longer be declined`,
    );
  }
  await audit(deps, { actor: input.actor, origin: input.origin, reason }, request, 'payment.cancel.decline', {});
  return (await deps.store.cancellations.get(request.id))!;
}
