// Cancelling a payment while it waits (docs/cancellation.md). The banking API cancels a payment
// resource (DELETE, 202; IAM action banking.pis.cancel) and for a bulk that resource is the whole
// bulk; whether one payment of a bulk can be cancelled is not documented. So:
//   - a payment not yet sent is withdrawn (→ CANC); if it was queued in a bulk not yet sent, that
//     bulk is cancelled and its other payments are queued again in a new bulk;
//   - a payment of a bulk the bank has (RCVD, or waiting for a signing basket) cancels the whole
//     bulk at the bank, after the person saw every payment of it and said yes; only when the bank
//     confirms CANC are the bulk's other payments queued again, in a new bulk with a new
//     idempotency key, which the next submit sends once (the outbox, architecture §2.2);
//   - ACSP and later, rejected or cancelled payments are refused with the reason.
// Crash points: the request is stored before anything moves; `bank_requested_at` is stored
// before the DELETE; a run that finds it set reads the bulk's status first and finishes. The
// bank's CANC may also arrive as a status (poll or webhook): `applyPaymentStatus` then finishes
// the open request through `completeCancelledAtBank`, so the other payments are never lost to CANC.
// Each request, confirmation and outcome is an entry of the hash-chained audit trail.
import { isBankError, type BankClient } from '../../src/bank/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { SettleError } from '../../src/domain/errors.js';
import { normaliseIdentity, samePerson } from '../../src/domain/person.js';
import { bankStatusRank, canonicalBankStatus, isBankStatus, type BankStatus } from '../../src/domain/states.js';
import type { Logger } from '../../src/log/index.js';
import type { PaymentToCancel, Store, StoredCancellation } from '../../src/store/index.js';
import { completeAtBank, withdraw } from './plans.js';

export interface CancelDeps {
  store: Pick<Store, 'cancellations' | 'audit' | 'applyPlan'>;
  bank: BankClient;
  logger: Logger;
}

export interface CancelInput {
  /** An end-to-end id, a payment id, a bulk id (settle's or the bank's), or FILE:LINE. */
  ref: string;
  reason: string;
  /** Who asks (SETTLE_ACTOR or the OS user; the ERP for a camt.055) and from where. */
  actor: string;
  /** Who asks as a person (src/domain/person.ts: personOf); default: the actor, case-folded. */
  person?: string;
  origin: string;
  companies: readonly CompanyConfig[];
  /** Limits the reference to one company. */
  company?: string;
  /** The person saw every payment of the bulk and agreed that the whole bulk is cancelled at the bank. */
  yes?: boolean;
  /** camt.055: the ERP's message and case ids, quoted in its camt.029 answer. */
  erp?: { messageId: string; caseId?: string };
  /** Where a person asked: the command line (default) or the web console. */
  channel?: 'cli' | 'console';
  /**
   * The payments, already read, instead of those `ref` names: a camt.055's lines of one bulk, all
   * cancelled in one request (then `ref` only names the request for people).
   */
  payments?: readonly PaymentToCancel[];
}

export type CancelResult =
  /** Nothing done yet: the whole bulk would be cancelled at the bank; show `bulkLines`, ask, and call again with yes. */
  | { outcome: 'confirm'; company: string; lines: PaymentToCancel[]; bulkLines: PaymentToCancel[] }
  /** Four eyes: stored and waiting for a second person's `--confirm <requestId>`. */
  | { outcome: 'awaiting-confirmation'; request: StoredCancellation; lines: PaymentToCancel[] }
  /** The bank took the DELETE but has not said CANC yet; the status poll or a re-run finishes it. */
  | { outcome: 'at-bank'; request: StoredCancellation; lines: PaymentToCancel[] }
  | {
      outcome: 'withdrawn' | 'cancelled' | 'already';
      request: StoredCancellation;
      lines: PaymentToCancel[];
      /** The other payments of the cancelled bulk, queued again in `request.resentBulkId`. */
      resent: PaymentToCancel[];
    };

const FROM_ERP = 'camt055';

/** Asks for a cancellation; see the file comment. Refusals throw ERR_CANCEL_REFUSED with the reason. */
export async function cancelPayment(deps: CancelDeps, input: CancelInput): Promise<CancelResult> {
  const reason = input.reason.trim();
  if (reason === '') throw new SettleError('ERR_USAGE', '--reason must say why (it is kept with the cancellation)');
  const payments = input.payments === undefined ? await resolvePayments(deps, input) : [...input.payments];
  const company = companyOf(input.companies, payments[0]!.company);
  const ids = payments.map((l) => l.id);
  const [open] = await deps.store.cancellations.openFor(company.id, ids);
  if (open) {
    // The same request again (a re-run after a crash, or a second camt.055): continue it.
    if (needsSecondPerson(company, open)) return { outcome: 'awaiting-confirmation', request: open, lines: payments };
    return execute(deps, company, open, input);
  }
  if (payments.every((l) => l.state === 'CANC')) {
    const done = await deps.store.cancellations.closedFor(company.id, ids);
    if (done) return { outcome: 'already', request: done, lines: payments, resent: [] };
  }
  refuseIfTooLate(payments);
  const bulkId = atBankBulk(payments);
  const bulkPayments = bulkId === undefined ? [] : await deps.store.cancellations.paymentsOfBulk(bulkId);
  const asked = new Set(ids);
  const others = bulkPayments.filter((l) => !asked.has(l.id));
  if (bulkId !== undefined && others.length > 0 && input.yes !== true)
    return { outcome: 'confirm', company: company.id, lines: payments, bulkLines: bulkPayments };
  const request = await deps.store.cancellations.create({
    company: company.id,
    ref: input.ref,
    paymentIds: ids,
    ...(bulkId === undefined ? {} : { bulkId }),
    reason,
    requestedBy: input.actor,
    requestedPerson: input.person ?? normaliseIdentity(input.actor),
    channel: input.erp ? FROM_ERP : (input.channel ?? 'cli'),
    ...(input.erp ? { erpMessageId: input.erp.messageId } : {}),
    ...(input.erp?.caseId === undefined ? {} : { erpCaseId: input.erp.caseId }),
  });
  await audit(deps, input, request, 'payment.cancel.request', {
    lines: payments.map(lineText),
    bulkLines: bulkPayments.length,
  });
  if (needsSecondPerson(company, request)) return { outcome: 'awaiting-confirmation', request, lines: payments };
  return execute(deps, company, request, input);
}

export interface ConfirmInput {
  requestId: string;
  actor: string;
  /** Who confirms as a person (src/domain/person.ts: personOf): never the one who asked. */
  person: string;
  origin: string;
  companies: readonly CompanyConfig[];
}

/** Four eyes: a second, different person confirms an open request, which is then carried out. */
export async function confirmCancellation(deps: CancelDeps, input: ConfirmInput): Promise<CancelResult> {
  const request = await deps.store.cancellations.get(input.requestId);
  if (!request || request.outcome !== undefined)
    throw new SettleError(
      'ERR_CANCEL_NOT_FOUND',
      request
        ? `cancellation ${input.requestId} was already ${request.outcome}`
        : `no cancellation request ${input.requestId}`,
    );
  // Four eyes compares people, not logins: two logins of one person are one person.
  if (samePerson(request.requestedPerson ?? request.requestedBy, input.person))
    throw new SettleError(
      'ERR_CANCEL_SAME_PERSON',
      `${input.actor} asked for cancellation ${request.id}; a second person must confirm it (four eyes)`,
    );
  const company = companyOf(input.companies, request.company);
  if (request.confirmedBy === undefined) {
    await deps.store.cancellations.confirm(request.id, input.actor);
    await audit(deps, { ...input, reason: request.reason }, request, 'payment.cancel.confirm', {});
  }
  const confirmed = (await deps.store.cancellations.get(request.id))!;
  return execute(deps, company, confirmed, { actor: input.actor, origin: input.origin, reason: request.reason });
}

/**
 * The bank's CANC for a bulk with an open request arrived as a status (poll or webhook): finish
 * the request before the status moves the bulk's payments, so its other payments are queued again.
 */
export async function completeCancelledAtBank(
  store: Pick<Store, 'cancellations' | 'audit' | 'applyPlan'>,
  bulkId: string,
): Promise<StoredCancellation | undefined> {
  const open = await store.cancellations.openAtBank(bulkId);
  if (!open) return undefined;
  const done = await completeAtBank(store, open.id);
  await auditBankStatus(store, open, 'payment.cancel', {
    outcome: done.outcome,
    resentBulk: done.resentBulkId ?? null,
  });
  return done;
}

/** The audit entry of a request the bank's status ended, in the name of who asked (or confirmed). */
async function auditBankStatus(
  store: Pick<Store, 'audit'>,
  open: StoredCancellation,
  action: 'payment.cancel' | 'payment.cancel.refused',
  details: Record<string, unknown>,
): Promise<void> {
  await store.audit.append({
    actor: open.confirmedBy ?? open.requestedBy,
    action,
    subject: { type: 'cancellation', id: open.id },
    reason: open.reason,
    origin: 'bank status',
    details: { company: open.company, ...details },
  });
}

/**
 * The bank's status for a bulk with an open request says the payment went on instead (accepted
 * for execution or beyond, or rejected): the bank did not cancel it, so the request is closed as
 * refused with that status, and the ERP's final camt.029 (when it was answered pending) says so.
 */
export async function refuseLeftAtBank(
  store: Pick<Store, 'cancellations' | 'audit'>,
  bulkId: string,
  status: BankStatus,
): Promise<void> {
  if (status === 'CANC' || (status !== 'RJCT' && bankStatusRank(status) < bankStatusRank('ACSP'))) return;
  const open = await store.cancellations.openAtBank(bulkId);
  if (!open) return;
  const detail = `the bank did not cancel it: the payment went on to ${status}`;
  await store.cancellations.refuse(open.id, detail);
  await auditBankStatus(store, open, 'payment.cancel.refused', { bank: detail });
}

async function execute(
  deps: CancelDeps,
  company: CompanyConfig,
  request: StoredCancellation,
  who: { actor: string; origin: string; reason: string },
): Promise<CancelResult> {
  const payments = await paymentsOf(deps, request);
  if (request.bulkId === undefined || payments.every((l) => l.bulkState === 'pending')) {
    refuseIfTooLate(payments);
    let done: StoredCancellation;
    try {
      done = await withdraw(deps.store, request.id);
    } catch (error) {
      // submit took the bulk between our read and our transaction: it is at the bank now.
      if (!(error instanceof SettleError) || error.code !== 'ERR_STATE_TRANSITION_ILLEGAL') throw error;
      throw new SettleError(
        'ERR_CANCEL_REFUSED',
        `the bulk of ${request.ref} is being sent to the bank right now; run the same command again in a minute`,
      );
    }
    return finish(deps, who, done, 'withdrawn');
  }
  const bank = bankContextOf(company);
  const bankPaymentId = payments.find((l) => l.bankPaymentId !== undefined)?.bankPaymentId;
  if (bankPaymentId === undefined) throw tooLate(payments[0]!, 'its bulk has no answer from the bank yet');
  // A DELETE may already have gone (a crash, or a repeat): the bulk's status says whether it took.
  if (request.bankRequestedAt !== undefined && (await bulkStatus(deps, bank, bankPaymentId)) === 'CANC')
    return finish(deps, who, await completeAtBank(deps.store, request.id), 'cancelled');
  await deps.store.cancellations.markBankRequested(request.id);
  let status: BankStatus | undefined;
  try {
    status = canonicalBankStatus((await deps.bank.cancelBulkPayment(bank, bankPaymentId)).transactionStatus);
    if (status !== 'CANC') status = await bulkStatus(deps, bank, bankPaymentId);
  } catch (error) {
    if (!isBankError(error) || error.outcomeUnknown || error.retryable) throw error;
    // Refused; unless an earlier DELETE of ours had already cancelled it.
    if ((await bulkStatus(deps, bank, bankPaymentId)) === 'CANC')
      return finish(deps, who, await completeAtBank(deps.store, request.id), 'cancelled');
    const detail = `the bank refused to cancel bulk ${bankPaymentId}: ${error.detail ?? error.title ?? error.message}`;
    await deps.store.cancellations.refuse(request.id, detail);
    await audit(deps, who, request, 'payment.cancel.refused', { bank: detail });
    throw new SettleError('ERR_CANCEL_REFUSED', `${request.ref} was not cancelled: ${detail}`);
  }
  if (status === 'CANC') return finish(deps, who, await completeAtBank(deps.store, request.id), 'cancelled');
  deps.logger.info('cancellation sent; the bank has not confirmed it yet', { requestId: request.id, status });
  return { outcome: 'at-bank', request: (await deps.store.cancellations.get(request.id))!, lines: payments };
}

async function finish(
  deps: CancelDeps,
  who: { actor: string; origin: string; reason: string },
  done: StoredCancellation,
  outcome: 'withdrawn' | 'cancelled',
): Promise<CancelResult> {
  const resent =
    done.resentBulkId === undefined ? [] : await deps.store.cancellations.paymentsOfBulk(done.resentBulkId);
  const payments = await paymentsOf(deps, done);
  await audit(deps, who, done, 'payment.cancel', {
    outcome,
    lines: payments.map(lineText),
    resentBulk: done.resentBulkId ?? null,
    resent: resent.map((l) => l.endToEndId),
  });
  deps.logger.info('payment cancelled', { requestId: done.id, outcome, lines: payments.length, resent: resent.length });
  return { outcome, request: done, lines: payments, resent };
}

export async function resolvePayments(
  deps: Pick<CancelDeps, 'store'>,
  input: Pick<CancelInput, 'ref' | 'company'>,
): Promise<PaymentToCancel[]> {
  const payments = await deps.store.cancellations.resolve(input.ref.trim(), input.company);
  const companies = [...new Set(payments.map((l) => l.company))];
  if (payments.length === 0 || companies.length > 1)
    throw new SettleError(
      'ERR_CANCEL_NOT_FOUND',
      payments.length === 0
        ? `no payment, bulk or FILE:LINE ${JSON.stringify(input.ref)}${input.company ? ` in company ${input.company}` : ''}; see settle payments list`
        : `${JSON.stringify(input.ref)} names payments of ${companies.join(', ')}; add --company`,
    );
  const bulks = new Set(payments.map((l) => l.bulkId ?? ''));
  if (bulks.size > 1)
    throw new SettleError(
      'ERR_CANCEL_NOT_FOUND',
      `${JSON.stringify(input.ref)} names payments of ${bulks.size} bulks; cancel them one end-to-end id or bulk at a time`,
    );
  return payments;
}

async function paymentsOf(deps: CancelDeps, request: StoredCancellation): Promise<PaymentToCancel[]> {
  return deps.store.cancellations.paymentsByIds(request.paymentIds);
}

/**
 * The bank context a company's bulks live in: the one place this use case asks it (the resource
 * group today; a company with several banks gets its bulk's bank and consent from here).
 */
function bankContextOf(company: CompanyConfig): string {
  return company.organisationNumber;
}

/** The bulk at the bank that holds the payments (sent or further), or undefined when none is sent. */
export function atBankBulk(payments: readonly PaymentToCancel[]): string | undefined {
  const payment = payments[0]!;
  return payment.bulkId !== undefined && payment.bulkState !== 'pending' ? payment.bulkId : undefined;
}

/** Payments that left the bank, are final, or whose bulk's fate is not known are refused, with why. */
export function refuseIfTooLate(payments: readonly PaymentToCancel[]): void {
  for (const payment of payments) {
    if (payment.state === 'accepted' || payment.state === 'held') continue;
    if (payment.state === 'queued' && payment.bulkState === 'pending') continue;
    if (payment.state === 'CANC' || payment.state === 'RJCT') throw tooLate(payment, `it is already ${payment.state}`);
    if (payment.state === 'queued' || payment.state === 'unknown' || payment.bulkState !== 'sent')
      throw tooLate(payment, `the bank's answer for its bulk is not known yet (bulk ${payment.bulkState ?? '?'})`);
    // At the bank: the payment's own status, or (before any payment status came) its bulk's.
    const status = payment.state === 'sent' ? payment.bulkBankStatus : payment.state;
    if (status !== undefined && isBankStatus(status) && bankStatusRank(status) >= bankStatusRank('ACSP'))
      throw tooLate(
        payment,
        `the bank accepted it for execution (${status}); a payment that has left the bank is recalled through the bank, not cancelled`,
      );
  }
}

function tooLate(payment: PaymentToCancel, why: string): SettleError {
  return new SettleError(
    'ERR_CANCEL_REFUSED',
    `${payment.endToEndId} (${payment.fileName} line ${payment.lineNumber}) can no longer be cancelled: ${why}`,
    { details: { endToEndId: payment.endToEndId, state: payment.state } },
  );
}

async function bulkStatus(deps: CancelDeps, bank: string, bankPaymentId: string): Promise<BankStatus | undefined> {
  return canonicalBankStatus((await deps.bank.getBulkPaymentStatus(bank, bankPaymentId)).transactionStatus);
}

function needsSecondPerson(company: CompanyConfig, request: StoredCancellation): boolean {
  // A person's request (command line or console) waits for a second person; the ERP's camt.055 is its own approval.
  return company.payments.cancelFourEyes && request.channel !== FROM_ERP && request.confirmedBy === undefined;
}

export function companyOf(companies: readonly CompanyConfig[], id: string): CompanyConfig {
  const company = companies.find((c) => c.id === id);
  if (!company) throw new SettleError('ERR_CANCEL_NOT_FOUND', `company ${id} is not in the configuration`);
  return company;
}

function lineText(l: PaymentToCancel): string {
  return `${l.endToEndId} (${l.fileName} line ${l.lineNumber})`;
}

export async function audit(
  deps: Pick<CancelDeps, 'store'>,
  who: { actor: string; origin: string; reason: string },
  request: StoredCancellation,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await deps.store.audit.append({
    actor: who.actor,
    action,
    subject: { type: 'cancellation', id: request.id },
    reason: who.reason,
    origin: who.origin,
    details: { company: request.company, ref: request.ref, channel: request.channel, ...details },
  });
}
