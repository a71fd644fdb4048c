// THE transition function for bank statuses (architecture §2.4): polling and webhook events both
// call `applyPaymentStatus`, so a status reported twice, or an older status arriving after a newer
// one, changes nothing (the repositories decide by rank, see src/domain/states.ts). After a change
// it closes what is finished: a bulk whose lines are all final becomes `done`, a file whose bulks
// are all final becomes `completed`.
import type { TppMessage as BankTppMessage } from '../../src/bank/index.js';
import {
  canonicalBankStatus,
  TERMINAL_BANK_STATUSES,
  type BankStatus,
  type UpdateDecision,
} from '../../src/domain/states.js';
import type { Logger } from '../../src/log/index.js';
import type { Store, TppMessage } from '../../src/store/index.js';

export interface StatusUpdate {
  /** The bank's payment id of the bulk (`level: 'bulk'`) or of the line (`level: 'line'`). */
  bankPaymentId?: string;
  /** Our bulk id when the caller already knows it (polling). */
  bulkId?: string;
  /** The bank's id of the bulk a line belongs to (events: `_links.bulkPayment`). */
  bankBulkPaymentId?: string;
  endToEndId?: string;
  level: 'bulk' | 'line';
  status: string;
  tppMessages: readonly BankTppMessage[];
  /** When the bank says the status was reached (event time), or when it was read (poll). */
  at: Date;
  source: 'poll' | 'event' | 'lookup';
  /** Limits the end-to-end id match to one company (polling knows it). */
  company?: string;
}

export type StatusOutcome = UpdateDecision | 'unmatched' | 'unknown-status';

export interface StatusResult {
  outcome: StatusOutcome;
  bulkId?: string;
  /** How many rows (bulk and lines) changed. */
  changed: number;
}

export interface ApplyDeps {
  store: Store;
  logger: Logger;
}

export async function applyPaymentStatus(deps: ApplyDeps, update: StatusUpdate): Promise<StatusResult> {
  const status = canonicalBankStatus(update.status);
  if (status === undefined) {
    // Unknown codes are kept in the log, never guessed at (facts sheet: the bank adds codes).
    deps.logger.warn('bank reported an unknown payment status; ignored', {
      status: update.status,
      source: update.source,
      bankPaymentId: update.bankPaymentId,
    });
    return { outcome: 'unknown-status', changed: 0 };
  }
  const cause = `${update.source} ${status} at ${update.at.toISOString()}`;
  const tpp = update.tppMessages.map(toStoreTpp);
  if (update.level === 'bulk') {
    const bulkId =
      update.bulkId ??
      (update.bankPaymentId === undefined ? undefined : await deps.store.bulks.idByBankPaymentId(update.bankPaymentId));
    if (bulkId === undefined) return { outcome: 'unmatched', changed: 0 };
    const decision = await deps.store.bulks.applyBankStatus(bulkId, status, cause);
    let changed = decision === 'apply' ? 1 : 0;
    // A final bulk status is the status of every line (all ACSC, all RJCT, all CANC); a mixed or
    // in-progress bulk status says nothing certain about one line, so lines wait for their own.
    if (status === 'ACSC' || status === 'RJCT' || status === 'CANC') {
      const counts = await deps.store.bulks.applyBankStatusToLines(bulkId, status, cause);
      changed += counts.apply;
    }
    if (changed > 0) await closeFinished(deps, bulkId);
    return { outcome: changed > 0 ? 'apply' : decision, bulkId, changed };
  }

  const line = await findLine(deps, update);
  if (line === undefined) return { outcome: 'unmatched', changed: 0 };
  const result = await applyLineStatus(deps, line, status, cause, tpp, update.source);
  if (result.outcome === 'apply' && line.bulkId !== undefined) await closeFinished(deps, line.bulkId);
  return result;
}

/**
 * The line half of `applyPaymentStatus` for a caller that already knows the line (the poll reads
 * a whole bulk: it matches all its lines at once and closes the bulk once, after the last line).
 */
export async function applyLineStatus(
  deps: ApplyDeps,
  line: { id: string; bulkId?: string },
  status: BankStatus,
  cause: string,
  tpp: readonly TppMessage[],
  source: StatusUpdate['source'],
): Promise<StatusResult> {
  let decision: UpdateDecision;
  try {
    decision = await deps.store.payments.applyBankStatus(line.id, status, cause, tpp);
  } catch (error) {
    // A status that no order of events explains (e.g. for a line settle never queued): keep the
    // stored state and say so; the status report shows what settle knows.
    deps.logger.warn('bank status does not fit the line; ignored', {
      paymentId: line.id,
      status,
      source,
      error: (error as Error).message,
    });
    return { outcome: 'stale', ...(line.bulkId ? { bulkId: line.bulkId } : {}), changed: 0 };
  }
  return { outcome: decision, ...(line.bulkId ? { bulkId: line.bulkId } : {}), changed: decision === 'apply' ? 1 : 0 };
}

async function findLine(deps: ApplyDeps, update: StatusUpdate): Promise<{ id: string; bulkId?: string } | undefined> {
  if (update.endToEndId === undefined) return undefined;
  const bulkId =
    update.bulkId ??
    (update.bankBulkPaymentId === undefined
      ? undefined
      : await deps.store.bulks.idByBankPaymentId(update.bankBulkPaymentId));
  if (bulkId !== undefined) {
    const line = (await deps.store.payments.listByBulk(bulkId)).find((p) => p.endToEndId === update.endToEndId);
    if (line) return { id: line.id, bulkId };
  }
  // The event may overtake our record of the POST's answer (no bank id stored yet): the
  // end-to-end id is unique per company, and across companies when it matches one line only.
  const candidates = (await deps.store.payments.linesByEndToEndId(update.endToEndId, update.company)).filter(
    (c) => c.bulkId !== undefined,
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** bulk sent → done when every line is final; file submitted → completed when every bulk is. */
export async function closeFinished(deps: ApplyDeps, bulkId: string): Promise<void> {
  const bulk = await deps.store.bulks.get(bulkId);
  if (!bulk || bulk.state !== 'sent') return;
  const lines = await deps.store.payments.listByBulk(bulkId);
  if (!lines.every((l) => TERMINAL_BANK_STATUSES.has(l.state as BankStatus))) return;
  await tolerate(() => deps.store.bulks.setState(bulkId, 'done', 'every line final'));
  const file = await deps.store.files.getFile(bulk.fileId);
  if (!file || (file.state !== 'submitted' && file.state !== 'attention')) return;
  const bulks = await deps.store.bulks.listByFile(bulk.fileId);
  if (bulks.every((b) => b.state === 'done' || b.state === 'rejected' || b.state === 'cancelled')) {
    await tolerate(() => deps.store.files.setFileState(bulk.fileId, 'completed', 'every bulk final'));
  }
}

/** A concurrent instance may have made the same move a moment earlier: that is fine. */
async function tolerate(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_STATE_TRANSITION_ILLEGAL') throw error;
  }
}

export function toStoreTpp(m: BankTppMessage): TppMessage {
  return {
    ...(m.category ? { category: m.category } : {}),
    code: m.code,
    ...(m.text !== undefined ? { message: m.text } : {}),
  };
}
