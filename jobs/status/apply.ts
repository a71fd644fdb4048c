// The one entry point for bank statuses (architecture §2.4): polling (a whole bulk: its status
// and all its payments) and webhook events (one bulk or one payment) both call `applyPaymentStatus`.
// Payments that report the same status move together in one store transition; a status reported
// twice, or an older status arriving after a newer one, changes nothing (the store's transition
// function decides by rank, see src/domain/states.ts). After a change it closes what is finished:
// a bulk whose payments are all final becomes `done`, a file whose bulks are all final `completed`.
import type { TppMessage as BankTppMessage } from '../../src/bank/index.js';
import {
  canonicalBankStatus,
  TERMINAL_BANK_STATUSES,
  type BankStatus,
  type UpdateDecision,
} from '../../src/domain/states.js';
import type { Logger } from '../../src/log/index.js';
import type { Store, TppMessage, TransitionSource } from '../../src/store/index.js';
import { isSettleError } from '../../src/domain/errors.js';
import { completeCancelledAtBank, refuseLeftAtBank } from '../cancel/index.js';
import { cause as causes } from '../../src/domain/transition-cause.js';

/** One payment's status as the bank reported it (a poll reads them all; an event names one). */
export interface LineStatus {
  endToEndId?: string;
  status?: string;
  tppMessages: readonly BankTppMessage[];
}

export interface StatusUpdate {
  /** The bank's payment id of the bulk (`level: 'bulk'`) or of the payment (`level: 'line'`). */
  bankPaymentId?: string;
  /** Our bulk id when the caller already knows it (polling). */
  bulkId?: string;
  /** The bank's id of the bulk a payment belongs to (events: `_links.bulkPayment`). */
  bankBulkPaymentId?: string;
  endToEndId?: string;
  level: 'bulk' | 'line';
  status: string;
  tppMessages: readonly BankTppMessage[];
  /** With `level: 'bulk'`: the status of each of its payments, when the bank gave them (a poll). */
  lines?: readonly LineStatus[];
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
  /** How many rows (bulk and payments) changed. */
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
  const cause = causes.statusReport(update.source, status, update.at);
  if (update.level === 'bulk') {
    const bulkId =
      update.bulkId ??
      (update.bankPaymentId === undefined ? undefined : await deps.store.bulks.idByBankPaymentId(update.bankPaymentId));
    if (bulkId === undefined) return { outcome: 'unmatched', changed: 0 };
    // A CANC we asked for (settle payments cancel): the request re-queues the bulk's other payments first.
    if (status === 'CANC') await completeCancelledAtBank(deps.store, bulkId);
    // A request at the bank whose bulk went on instead is refused (it can no longer be cancelled).
    else await refuseLeftAtBank(deps.store, bulkId, status);
    // Payments first: a final bulk status then finds its payments already final.
    let changed = update.lines ? await applyLines(deps, bulkId, update.lines, update) : 0;
    const decision = await deps.store.bulks.applyBankStatus(bulkId, status, cause, update.source);
    if (decision === 'apply') changed++;
    // A final bulk status is the status of every payment (all ACSC, all RJCT, all CANC); a mixed or
    // in-progress bulk status says nothing certain about one payment, so payments wait for their own.
    if (status === 'ACSC' || status === 'RJCT' || status === 'CANC') {
      const counts = await deps.store.bulks.applyBankStatusToPayments(bulkId, status, cause, update.source);
      changed += counts.apply;
    }
    if (changed > 0) await closeFinished(deps, bulkId, update.source);
    return { outcome: changed > 0 ? 'apply' : decision, bulkId, changed };
  }

  const line = await findPayment(deps, update);
  if (line === undefined) return { outcome: 'unmatched', changed: 0 };
  if (status === 'CANC' && line.bulkId !== undefined) {
    // The bulk's other payments were just queued again in a new bulk: this CANC is no longer theirs.
    const done = await completeCancelledAtBank(deps.store, line.bulkId);
    if (done && !done.paymentIds.includes(line.id)) return { outcome: 'stale', bulkId: line.bulkId, changed: 0 };
  }
  const r = await deps.store.payments.applyBankStatus([line.id], {
    status,
    cause,
    source: update.source,
    tppMessages: update.tppMessages.map(toStoreTpp),
  });
  warnRefused(deps, r.refused, status, update.source);
  const bulk = line.bulkId ? { bulkId: line.bulkId } : {};
  if (r.moved > 0) {
    // Only a line that became final can be the bulk's last one to: the others leave it open.
    if (line.bulkId !== undefined && TERMINAL_BANK_STATUSES.has(status))
      await closeFinished(deps, line.bulkId, update.source);
    return { outcome: 'apply', ...bulk, changed: 1 };
  }
  return { outcome: r.duplicate > 0 ? 'duplicate' : 'stale', ...bulk, changed: 0 };
}

/**
 * A bulk's payments as the bank reported them: matched by end-to-end id in one read, unchanged
 * payments left alone (the common case of a poll), and the rest moved in one transition per
 * distinct status and messages — for a bulk whose payments agree, one UPDATE for all of them.
 */
async function applyLines(
  deps: ApplyDeps,
  bulkId: string,
  lines: readonly LineStatus[],
  update: StatusUpdate,
): Promise<number> {
  // The common poll: every payment reports the status it already has, with no messages (one count).
  const same = oneStatusWithoutMessages(lines);
  if (same !== undefined && (await deps.store.payments.bulkAllAtWithoutMessages(bulkId, same))) return 0;
  const ours = new Map((await deps.store.payments.statusOfBulkPayments(bulkId)).map((p) => [p.endToEndId, p]));
  const groups = new Map<string, { status: BankStatus; tpp: TppMessage[]; ids: string[] }>();
  for (const line of lines) {
    const status = line.status === undefined ? undefined : canonicalBankStatus(line.status);
    const mine = line.endToEndId === undefined ? undefined : ours.get(line.endToEndId);
    if (status === undefined || mine === undefined) continue;
    const tpp = line.tppMessages.map(toStoreTpp);
    const key = `${status} ${JSON.stringify(tpp)}`;
    if (mine.state === status && JSON.stringify(mine.tppMessages) === JSON.stringify(tpp)) continue;
    const group = groups.get(key);
    if (group) group.ids.push(mine.id);
    else groups.set(key, { status, tpp, ids: [mine.id] });
  }
  let changed = 0;
  for (const { status, tpp, ids } of groups.values()) {
    const cause = causes.statusReport(update.source, status, update.at);
    // The common poll: every payment of the bulk reports the same new status — moved as the bulk's payments.
    const r = await deps.store.payments.applyBankStatus(ids.length === ours.size ? { bulkId } : ids, {
      status,
      cause,
      source: update.source,
      tppMessages: tpp,
    });
    warnRefused(deps, r.refused, status, update.source);
    changed += r.moved;
  }
  return changed;
}

/** The one known status every reported payment has, when none carries a message; else undefined. */
function oneStatusWithoutMessages(lines: readonly LineStatus[]): BankStatus | undefined {
  const first = lines[0]?.status;
  const status = first === undefined ? undefined : canonicalBankStatus(first);
  if (status === undefined) return undefined;
  for (const line of lines)
    if (
      line.tppMessages.length > 0 ||
      line.status === undefined ||
      (line.status !== first && canonicalBankStatus(line.status) !== status)
    )
      return undefined;
  return status;
}

/** A status that no order of events explains (e.g. for a payment settle never queued): the stored state stays. */
function warnRefused(deps: ApplyDeps, refused: readonly string[], status: BankStatus, source: string): void {
  if (refused.length === 0) return;
  deps.logger.warn('bank status does not fit the line; ignored', {
    paymentIds: refused.slice(0, 20),
    lines: refused.length,
    status,
    source,
  });
}

async function findPayment(
  deps: ApplyDeps,
  update: StatusUpdate,
): Promise<{ id: string; bulkId?: string } | undefined> {
  if (update.endToEndId === undefined) return undefined;
  const bulkId =
    update.bulkId ??
    (update.bankBulkPaymentId === undefined
      ? undefined
      : await deps.store.bulks.idByBankPaymentId(update.bankBulkPaymentId));
  if (bulkId !== undefined) {
    const id = await deps.store.payments.idInBulk(bulkId, update.endToEndId);
    if (id !== undefined) return { id, bulkId };
  }
  // The event may overtake our record of the POST's answer (no bank id stored yet): a payment of a
  // bulk still awaiting its bank id, by end-to-end id, unique per company, and across companies
  // when it matches one payment only.
  const candidates = await deps.store.payments.paymentsAwaitingBankId(update.endToEndId, update.company);
  return candidates.length === 1 ? candidates[0] : undefined;
}

/** bulk sent → done when every payment is final; file submitted → completed when every bulk is. */
async function closeFinished(deps: ApplyDeps, bulkId: string, source: TransitionSource): Promise<void> {
  const bulk = await deps.store.bulks.get(bulkId);
  if (!bulk || bulk.state !== 'sent') return;
  if (!(await deps.store.payments.bulkAllIn(bulkId, [...TERMINAL_BANK_STATUSES]))) return;
  await tolerate(() => deps.store.bulks.setState(bulkId, 'done', causes.everyLineFinal(), source));
  const file = await deps.store.files.getFile(bulk.fileId);
  if (!file || (file.state !== 'submitted' && file.state !== 'attention')) return;
  const bulks = await deps.store.bulks.listByFile(bulk.fileId);
  if (bulks.every((b) => b.state === 'done' || b.state === 'rejected' || b.state === 'cancelled')) {
    await tolerate(() => deps.store.files.setFileState(bulk.fileId, 'completed', causes.everyBulkFinal(), source));
  }
}

/** A concurrent instance may have made the same move a moment earlier: that is fine. */
async function tolerate(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!isSettleError(error) || error.code !== 'ERR_STATE_TRANSITION_ILLEGAL') throw error;
  }
}

export function toStoreTpp(m: BankTppMessage): TppMessage {
  return {
    ...(m.category ? { category: m.category } : {}),
    code: m.code,
    ...(m.text !== undefined ? { message: m.text } : {}),
  };
}
