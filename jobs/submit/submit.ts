// The submit job (architecture §2.2–2.3): turns accepted files into bulk credit
// transfers at the bank, exactly once.
//   plan — each accepted file's payments are grouped (planBulks: debtor account, execution date,
//          batch booking, at most payments.maxLinesPerBulk payments) and stored as bulks with their
//          derived Idempotency-Keys in ONE transaction, before anything is sent;
//   send — bulks are claimed with a lease (several instances never send the same bulk at once),
//          POSTed with the stored key under the Consent-ID of the debtor account's bank
//          (payments/bulk-consent.ts), and the answer recorded: accepted (a replay counts),
//          refused for good (rejected, explained for an accountant), certainly not taken (queued
//          again), or open (kept `sending`, retried with the same key while the bank still
//          remembers it; after bank.idempotencyRetention it becomes `unknown`);
//   resolve — unknown bulks are looked up at the bank, never sent again blind.
// Before a bulk's first send, its bank's cut-off applies (jobs/submit/cut-off.ts): a bulk dated
// today sent after it is moved to the next business day or refused, by cutOff.policy.
import type { CompanyConfig } from '../../src/config/index.js';
import { isBankError } from '../../src/bank/index.js';
import { planBulks } from '../../src/domain/plans/bulk-plan.js';
import { mapConcurrent } from '../../src/domain/concurrent.js';
import { dateInZone } from '../../src/domain/local-date.js';
import { isSettleError } from '../../src/domain/errors.js';
import type { StoredBulk, StoredPayment } from '../../src/store/index.js';
import { bulkConsent } from './bulk-consent.js';
import { answeredLines, bulkRequest } from './bulk-request.js';
import { applyCutOff } from './cut-off.js';
import {
  DEFAULT_CLAIM_LEASE_MS,
  type PaymentJobDeps,
  explainSendFailure,
  maskIban,
  problemOf,
} from '../payments/index.js';
import { recordSent } from './record-sent.js';
import { resolveUnknownBulk } from './resolve-unknown.js';
import { firstSendCheck, type FirstSendCheck } from './restore-guard.js';
import { cause } from '../../src/domain/transition-cause.js';
import { addTo } from '../../src/domain/group.js';

export type BulkOutcome =
  'sent' | 'replayed' | 'rejected' | 'retry' | 'sending' | 'unknown' | 'found' | 'attention' | 'skipped';

export interface SubmittedBulk {
  company: string;
  bulkId: string;
  fileId: string;
  lines: number;
  outcome: BulkOutcome;
  bankPaymentId?: string;
  /** Why, for people: the accountant-readable explanation of a refusal or an open outcome. */
  explanation?: string;
}

export interface SubmitSummary {
  /** Bulks created by the plan step in this run. */
  planned: number;
  bulks: SubmittedBulk[];
  /** Bulks to send that another holder has claimed (another run sends them, or its claim lapses first). */
  waiting: { bulks: number; until?: Date };
}

const CLAIM_BATCH = 32;
const SENDABLE = ['pending', 'sending'] as const;
/** Outcomes that leave a bulk `pending` or `sending`, for a later run (every other one leaves those states). */
const STILL_TO_SEND: ReadonlySet<BulkOutcome> = new Set(['retry', 'sending']);

export async function runSubmit(deps: PaymentJobDeps, companies: readonly CompanyConfig[]): Promise<SubmitSummary> {
  const summary: SubmitSummary = { planned: 0, bulks: [], waiting: { bulks: 0 } };
  for (const company of companies) {
    summary.planned += await planCompany(deps, company);
    // One by one, not spread into one call: at maxLinesPerBulk 1 a file of 200,000 lines is
    // 200,000 bulks, more than a call's arguments may be (the stack overflows past ~125,000).
    for (const bulk of await sendCompany(deps, company)) summary.bulks.push(bulk);
    for (const bulk of await resolveCompany(deps, company)) summary.bulks.push(bulk);
    const claimed = await deps.store.claimedElsewhere('bulks', { company: company.id, states: SENDABLE }, deps.holder);
    summary.waiting.bulks += claimed.count;
    if (claimed.until && (!summary.waiting.until || claimed.until > summary.waiting.until))
      summary.waiting.until = claimed.until;
  }
  return summary;
}

/** Creates the bulks of every accepted file of the company (idempotent: existing ones stay). */
async function planCompany(deps: PaymentJobDeps, company: CompanyConfig): Promise<number> {
  let created = 0;
  for (const file of await deps.store.files.listFiles({ company: company.id, state: 'accepted' })) {
    const before = (await deps.store.bulks.listByFile(file.id)).length;
    // Payments already in a bulk are planned too, so every bulk keeps its position (and its key)
    // when a crash interrupted an earlier run; only a payment cancelled before any bulk is left out.
    const payments = (await deps.store.payments.plannableByFile(file.id)).filter(
      (p) => p.bulkId !== undefined || p.state === 'accepted',
    );
    const plans = planBulks(payments, {
      maxLines: company.payments.maxLinesPerBulk,
      defaultBatchBooking: company.payments.batchBooking,
    });
    const bulks = await deps.store.bulks.createBulks(file.id, plans, cause.submitRun(deps.runId));
    created += bulks.length - before;
    try {
      await deps.store.files.setFileState(file.id, 'submitted', cause.bulksPlanned(bulks.length), 'submit');
    } catch (error) {
      // Another instance planned the same file a moment earlier (createBulks is idempotent).
      if (!isSettleError(error, 'ERR_STATE_TRANSITION_ILLEGAL')) throw error;
    }
    deps.logger.info('bulks planned', {
      company: company.id,
      fileId: file.id,
      file: file.fileName,
      bulks: bulks.length,
    });
  }
  return created + (await planReleased(deps, company));
}

/**
 * Payments a person released from a duplicate hold after their file was planned: new bulks of that
 * file, placed after its existing ones, so every earlier bulk keeps its position and its key.
 */
async function planReleased(deps: PaymentJobDeps, company: CompanyConfig): Promise<number> {
  const byFile = new Map<string, StoredPayment[]>();
  for (const payment of await deps.store.held.releasedUnplanned(company.id)) addTo(byFile, payment.fileId, payment);
  let created = 0;
  for (const [fileId, payments] of byFile) {
    const before = await deps.store.bulks.listByFile(fileId);
    const next = before.reduce((max, b) => Math.max(max, b.position + 1), 0);
    const plans = planBulks(payments, {
      maxLines: company.payments.maxLinesPerBulk,
      defaultBatchBooking: company.payments.batchBooking,
    }).map((plan) => ({ ...plan, position: plan.position + next }));
    const bulks = await deps.store.bulks.createBulks(fileId, plans, cause.submitRunReleased(deps.runId));
    created += bulks.length - before.length;
    deps.logger.info('released lines planned', { company: company.id, fileId, lines: payments.length });
  }
  return created;
}

async function sendCompany(deps: PaymentJobDeps, company: CompanyConfig): Promise<SubmittedBulk[]> {
  const out: SubmittedBulk[] = [];
  // The bulks this run tried that are still to send (answered "later", or open): the claims pass
  // over them. The others left `pending` and `sending` and no claim finds them, so they are not
  // named: a claim named every bulk the run had tried, each claim longer than the last, and past
  // 32,766 bulks in a company's run (maxLinesPerBulk 1) a claim bound more values than SQLite takes.
  const deferred = new Set<string>();
  // Every bulk this run tried: one a claim gives again (left sendable by an outcome thought final)
  // is deferred, not sent twice in one run, so the loop ends whatever the outcomes.
  const handled = new Set<string>();
  const leaseMs = deps.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  const concurrency = Math.max(1, deps.concurrency ?? 4);
  const check = firstSendCheck(deps);
  for (;;) {
    const rows = await deps.store.claim('bulks', {
      where: { state: ['pending', 'sending'], company: company.id },
      // A bulk answered "later" in this run waits for the next run, not for this loop.
      excludeIds: [...deferred],
      limit: CLAIM_BATCH,
      holder: deps.holder,
      leaseMs,
    });
    if (rows.length === 0) break;
    const ids = rows.map((r) => String(r.id));
    const fresh = ids.filter((id) => !handled.has(id));
    for (const id of ids) (handled.has(id) ? deferred : handled).add(id);
    // Claims are short; this heartbeat keeps them while the bank answers, and stops with us.
    const heartbeat = setInterval(
      () => void deps.store.renewClaim('bulks', ids, deps.holder, leaseMs).catch(() => undefined),
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      // A pool, not batches: a connection whose answer came takes the next bulk at once.
      const sent = await mapConcurrent(fresh, concurrency, (id) => sendOne(deps, company, id, check));
      for (const bulk of sent) if (STILL_TO_SEND.has(bulk.outcome)) deferred.add(bulk.bulkId);
      out.push(...sent);
    } finally {
      clearInterval(heartbeat);
      await deps.store.releaseClaim('bulks', ids, deps.holder);
    }
  }
  return out;
}

async function sendOne(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  bulkId: string,
  check: (company: CompanyConfig, bulk: StoredBulk) => Promise<FirstSendCheck>,
): Promise<SubmittedBulk> {
  const stored = await deps.store.bulks.get(bulkId);
  const base = { company: company.id, bulkId, fileId: stored?.fileId ?? '', lines: stored?.lineCount ?? 0 };
  if (!stored || (stored.state !== 'pending' && stored.state !== 'sending')) return { ...base, outcome: 'skipped' };
  const now = deps.clock.now();
  if (stored.state === 'sending' && pastRetention(deps, stored, now)) {
    // The bank may have forgotten the key: a new POST could pay a second time. Look, don't send.
    const explanation = `No answer from the bank since ${stored.firstSentAt?.toISOString() ?? '?'}, longer than the bank keeps idempotency keys; settle will not send it again and looks it up instead.`;
    await deps.store.bulks.markUnknown(
      bulkId,
      { explanation, lastProblem: stored.lastProblem ?? null },
      cause.retentionPassed(),
    );
    deps.logger.warn('bulk outcome unknown after the idempotency retention', { company: company.id, bulkId });
    return { ...base, outcome: 'unknown', explanation };
  }
  const looked = await check(company, stored);
  if (looked.verdict === 'found')
    return { ...base, outcome: 'found', bankPaymentId: looked.bankPaymentId, explanation: looked.explanation };
  if (looked.verdict === 'later') return { ...base, outcome: 'retry', explanation: looked.explanation };
  const consent = await bulkConsent(deps, company, stored.debtorIban);
  if ('later' in consent) return { ...base, outcome: 'retry', explanation: consent.later };
  const cut = await applyCutOff(deps, company, stored, consent.bankId);
  if (cut.kind === 'refused') return { ...base, outcome: 'rejected', explanation: cut.explanation };
  const rolled = cut.kind === 'rolled' ? { explanation: cut.explanation } : {};
  const lines = await deps.store.payments.requestLinesOfBulk(bulkId);
  const request = bulkRequest(cut.kind === 'rolled' ? { ...stored, executionDate: cut.to } : stored, lines);
  const sending = await deps.store.bulks.markSending(bulkId, cause.submitRun(deps.runId));
  try {
    const created = await deps.bank.createBulkPayment(company.organisationNumber, request, {
      idempotencyKey: stored.idempotencyKey,
      ...(consent.consentId !== undefined ? { consentId: consent.consentId } : {}),
    });
    await recordSent(deps.store, sending, {
      bankPaymentId: created.paymentId,
      cause: created.replayed ? cause.bankAcceptedReplay() : cause.bankAccepted(),
      bankStatus: created.transactionStatus,
      paymentStatuses: answeredLines(created, lines),
      ...consent,
    });
    // A replay is the bank's stored answer to our own earlier request: the same payment, once.
    if (created.replayed)
      deps.logger.info('bulk accepted earlier; the bank replayed its answer', {
        company: company.id,
        bulkId,
        bankPaymentId: created.paymentId,
      });
    else
      deps.logger.info('bulk sent', {
        company: company.id,
        bulkId,
        bankPaymentId: created.paymentId,
        lines: lines.length,
        ...consent,
      });
    return { ...base, outcome: created.replayed ? 'replayed' : 'sent', bankPaymentId: created.paymentId, ...rolled };
  } catch (error) {
    if (!isBankError(error)) throw error;
    const verdict = explainSendFailure(error, {
      company: company.id,
      debtorIban: stored.debtorIban,
      executionDate: stored.executionDate,
      today: dateInZone(deps.clock.now(), deps.timeZone),
      earlierAttemptUncertain: sending.attempts > 1,
    });
    const problem = problemOf(error, verdict.explanation);
    const log = {
      company: company.id,
      bulkId,
      debtor: maskIban(stored.debtorIban),
      status: error.status,
      code: error.code,
      traceId: error.traceId,
    };
    switch (verdict.verdict) {
      case 'rejected':
        await deps.store.bulks.markRejected(bulkId, problem, cause.bankRefused(error.status, error.title));
        deps.logger.warn('bulk rejected by the bank', { ...log, explanation: verdict.explanation });
        return { ...base, outcome: 'rejected', explanation: verdict.explanation };
      case 'retry':
        await deps.store.bulks.markRetryable(bulkId, problem);
        deps.logger.warn('bulk not taken by the bank; queued for the next run', log);
        return { ...base, outcome: 'retry', explanation: verdict.explanation };
      case 'unknown':
        await deps.store.bulks.markUnknown(bulkId, problem, cause.outcomeOpen(error.status ?? error.code));
        deps.logger.error('bulk outcome unknown; a person must look', { ...log, explanation: verdict.explanation });
        return { ...base, outcome: 'unknown', explanation: verdict.explanation };
      case 'uncertain': {
        const after = await deps.store.bulks.get(bulkId);
        if (after && pastRetention(deps, after, deps.clock.now())) {
          await deps.store.bulks.markUnknown(bulkId, problem, cause.noAnswerWithinRetention());
          return { ...base, outcome: 'unknown', explanation: verdict.explanation };
        }
        deps.logger.warn('bulk outcome open; retried with the same key next run', log);
        return { ...base, outcome: 'sending', explanation: verdict.explanation };
      }
    }
  }
}

function pastRetention(deps: PaymentJobDeps, bulk: StoredBulk, now: Date): boolean {
  return bulk.firstSentAt !== undefined && now.getTime() - bulk.firstSentAt.getTime() >= deps.idempotencyRetentionMs;
}

async function resolveCompany(deps: PaymentJobDeps, company: CompanyConfig): Promise<SubmittedBulk[]> {
  const out: SubmittedBulk[] = [];
  const unknown = await deps.store.bulks.listByState('unknown', [company.id]);
  for (const bulk of unknown) {
    const base = { company: company.id, bulkId: bulk.id, fileId: bulk.fileId, lines: bulk.lineCount };
    try {
      const resolution = await resolveUnknownBulk({ ...deps, now: deps.clock.now() }, company, bulk);
      if (resolution === 'found') out.push({ ...base, outcome: 'found', ...(await bankIdOf(deps, bulk.id)) });
      else if (resolution === 'absent')
        out.push({
          ...base,
          outcome: 'attention',
          explanation: 'Not found at the bank after its execution date: a person decides whether to pay it again.',
        });
      else
        out.push({
          ...base,
          outcome: 'unknown',
          explanation: 'Outcome still unknown; settle keeps looking for it at the bank.',
        });
    } catch (error) {
      if (!isBankError(error)) throw error;
      deps.logger.warn('lookup of an unknown bulk failed; tried again next run', {
        company: company.id,
        bulkId: bulk.id,
        code: error.code,
      });
      out.push({ ...base, outcome: 'unknown', explanation: `Lookup failed (${error.code}); tried again next run.` });
    }
  }
  return out;
}

async function bankIdOf(deps: PaymentJobDeps, bulkId: string): Promise<{ bankPaymentId?: string }> {
  const b = await deps.store.bulks.get(bulkId);
  return b?.bankPaymentId === undefined ? {} : { bankPaymentId: b.bankPaymentId };
}
