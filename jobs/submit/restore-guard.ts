// Before the first POST of a bulk, a look at the bank when the database may be older than the
// bank's records. Idempotency keys derive from the file's hash, so a bulk re-sent with its key
// is answered with the bank's stored response only while the bank remembers the key
// (bank.idempotencyRetention); after that a second POST would pay a second time. A database
// restored from a backup, or a bulk planned long ago that never left, can bring a bulk back to
// `pending` that the bank already has. So settle looks its end-to-end ids up among the debtor
// account's debits first (the same lookup as for `unknown` bulks) when
//   - the bulk's file was received longer ago than the retention, or
//   - earlier in this run a bulk of the company that the database thought unsent was found at
//     the bank: the database is older than the bank's activity, so every bulk is looked up.
// Found: the bulk is recorded as sent with the bank's paymentId, never POSTed. Not found: sent.
// What a look cannot see is a bulk the bank holds unsigned (no debit yet): docs/runbook.md.
import type { CompanyConfig } from '../../src/config/index.js';
import { isBankError } from '../../src/bank/index.js';
import { addDays, dateInZone } from '../../src/domain/local-date.js';
import type { StoredBulk } from '../../src/store/index.js';
import type { PaymentJobDeps } from '../payments/index.js';
import { findBulkAtBank } from './resolve-unknown.js';
import { recordSent } from './record-sent.js';
import { cause } from '../../src/domain/transition-cause.js';

export type FirstSendCheck =
  | { verdict: 'send' }
  | { verdict: 'found'; bankPaymentId: string; explanation: string }
  | { verdict: 'later'; explanation: string };

/** One per submit run: remembers the companies whose database proved older than the bank. */
export function firstSendCheck(
  deps: PaymentJobDeps,
): (company: CompanyConfig, bulk: StoredBulk) => Promise<FirstSendCheck> {
  const olderThanBank = new Set<string>();
  return async (company, bulk) => {
    if (bulk.state !== 'pending' || bulk.firstSentAt !== undefined) return { verdict: 'send' };
    const now = deps.clock.now();
    const receivedAt = (await deps.store.files.getFile(bulk.fileId))?.receivedAt ?? now;
    const old = now.getTime() - receivedAt.getTime() >= deps.idempotencyRetentionMs;
    if (!old && !olderThanBank.has(company.id)) return { verdict: 'send' };
    let bankPaymentId: string | undefined;
    try {
      bankPaymentId = await findBulkAtBank(deps, company, bulk, addDays(dateInZone(receivedAt, deps.timeZone), -1));
    } catch (error) {
      if (!isBankError(error)) throw error;
      return {
        verdict: 'later',
        explanation: `Received ${receivedAt.toISOString()}, longer ago than the bank keeps idempotency keys; settle must look it up at the bank before sending, and the lookup failed (${error.code}). Tried again next run.`,
      };
    }
    if (bankPaymentId === undefined) return { verdict: 'send' };
    olderThanBank.add(company.id);
    const explanation = `The bank already has this bulk (payment ${bankPaymentId}) although the database had it as not sent: the database is older than the bank's records (restored from a backup?). Recorded as sent, not sent again.`;
    const sending = await deps.store.bulks.markSending(bulk.id, cause.submitRunFoundAtBank(deps.runId));
    await recordSent(deps.store, sending, {
      bankPaymentId,
      cause: cause.foundBeforeSending(),
    });
    deps.logger.error('a bulk the database had as not sent is already at the bank; not sent again', {
      company: company.id,
      bulkId: bulk.id,
      bankPaymentId,
    });
    return { verdict: 'found', bankPaymentId, explanation };
  };
}
