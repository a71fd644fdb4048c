// A person records what the bank confirmed about a bulk whose outcome is unknown (runbook "A
// payment is unknown"): the bank has it (with its payment id; the status job follows it from
// then on) or it does not (its lines are reported to the ERP as rejected). Nothing is ever sent
// again from here. The one use case behind `settle payments resolve` and the console's Unknown
// bulks page; the decision goes to the transition log and, with who and from where, the audit trail.
import { SettleError } from '../../src/domain/errors.js';
import { planSentBulk } from '../../src/domain/plans/sent-bulk-plan.js';
import type { Store, StoredBulk } from '../../src/store/index.js';
import { cause as causes } from '../../src/domain/transition-cause.js';

export type HandResolution = 'at-bank' | 'not-at-bank';

export interface ResolveByHandInput {
  bulkId: string;
  as: HandResolution;
  /** The bank's payment id, with `at-bank`. */
  paymentId?: string;
  reason: string;
  actor: string;
  origin: string;
  /** Limits the bulk to one company (the console's chosen one). */
  company?: string;
}

export async function resolveBulkByHand(
  store: Pick<Store, 'bulks' | 'audit' | 'applyPlan'>,
  input: ResolveByHandInput,
): Promise<StoredBulk> {
  const reason = input.reason.trim();
  if (reason === '') throw new SettleError('ERR_USAGE', '--reason must say who confirmed what, and when');
  const bulk = await store.bulks.get(input.bulkId);
  if (!bulk || (input.company !== undefined && bulk.company !== input.company))
    throw new SettleError('ERR_PAYMENT_BULK_UNKNOWN', `no bulk ${input.bulkId}; see settle payments list`);
  if (bulk.state !== 'unknown' && bulk.state !== 'attention')
    throw new SettleError(
      'ERR_PAYMENT_NOT_UNRESOLVED',
      `bulk ${input.bulkId} is ${bulk.state}; only unknown or attention bulks are resolved by hand`,
    );
  const paymentId = input.paymentId?.trim();
  if (input.as === 'at-bank' && !paymentId)
    throw new SettleError('ERR_USAGE', '--as at-bank needs --payment-id (the id the bank shows for it)');
  const cause = causes.resolvedByPerson(reason);
  if (input.as === 'at-bank')
    await store.applyPlan(planSentBulk(bulk, { bankPaymentId: paymentId!, cause, source: 'operator' }));
  else
    await store.bulks.markRejected(
      bulk.id,
      {
        resolvedBy: 'person',
        reason,
        explanation:
          'The bank confirmed it never received these payments; the ERP must produce them again as new payments.',
      },
      cause,
      'operator',
    );
  await store.audit.append({
    actor: input.actor,
    action: 'bulk.resolve',
    subject: { type: 'bulk', id: bulk.id },
    reason,
    origin: input.origin,
    details: {
      company: bulk.company,
      as: input.as,
      ...(input.as === 'at-bank' ? { bankPaymentId: paymentId } : {}),
      before: bulk.state,
      lines: bulk.lineCount,
      totals: bulk.totals,
    },
  });
  return (await store.bulks.get(bulk.id))!;
}
