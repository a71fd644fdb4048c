// A camt.055 cancellation request from the ERP (dropped in the inbox; pickup recognises it): each
// transaction it names goes through the same use case as `settle payments cancel` (the ERP's
// request is the company's own decision, so it needs no --yes), and the answer is one camt.029
// per request message: ACCR, PDCR, or RJCR with the reason and the line of the camt.055 where
// the transaction was. A malformed file is refused whole, located, and nothing in it is done.
// Answering the same message again is harmless: the use case is idempotent (a line already
// cancelled is answered ACCR again). A PDCR is remembered: once the request ends, the status
// report writes the final camt.029 for it (jobs/status/camt029-final.ts).
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import { writeCamt029, type Camt029Transaction, type Camt029Version } from '../../src/formats/camt029/index.js';
import {
  readCamt055,
  type Camt055Problem,
  type Camt055Transaction,
  type Camt055Version,
} from '../../src/formats/camt055/index.js';
import { distinctPairs, type StandIn } from '../../src/formats/xml/identifier.js';
import type { PaymentToCancel, Store } from '../../src/store/index.js';
import { cancelPayment, type CancelDeps, type CancelInput, type CancelResult } from './cancel.js';

export interface Camt055Deps extends CancelDeps {
  store: CancelDeps['store'] & Pick<Store, 'cancellationAnswers' | 'shortIdentifiers'>;
  clock: Clock;
  /** Every configured company (the request names its own company's payments only). */
  companies: readonly CompanyConfig[];
}

export type Camt055Answer =
  | { ok: false; problems: Camt055Problem[] }
  | { ok: true; camt029: { name: string; xml: string }; transactions: Camt029Transaction[] };

const ANSWER_VERSION: Record<Camt055Version, Camt029Version> = {
  '001.01': '001.03',
  '001.08': '001.09',
  '001.09': '001.09',
};

/** Reads `xml` (the camt.055 named `fileName`) and carries out each request of it for `company`. */
export async function answerCamt055(
  deps: Camt055Deps,
  company: CompanyConfig,
  file: { name: string; xml: string },
): Promise<Camt055Answer> {
  const read = readCamt055(file.xml);
  if (!read.ok) return read;
  const { request } = read;
  const version = ANSWER_VERSION[request.version];
  const answers = new Map<Camt055Transaction, Camt029Transaction>();
  for (const tx of request.transactions) {
    if (answers.has(tx)) continue;
    const together = await waitingTogether(deps, company, tx, request.transactions, answers);
    if (together === undefined) answers.set(tx, await answerOne(deps, company, { file, tx, request, version }));
    else
      for (const [one, answer] of await answerTogether(deps, company, { file, request }, together))
        answers.set(one, answer);
  }
  const transactions = request.transactions.map((tx) => answers.get(tx)!);
  const standIns: StandIn[] = [];
  const xml = writeCamt029(
    {
      messageId: `STL-${request.assignmentId}`,
      createdAt: deps.clock.now(),
      assignerName: 'settle',
      assigneeName: company.name,
      resolvedCaseId: request.caseId ?? request.assignmentId,
      transactions,
    },
    version,
    standIns,
  );
  await deps.store.shortIdentifiers.remember(distinctPairs(standIns));
  return { ok: true, camt029: { name: `${file.name}.camt.029.${version}.xml`, xml }, transactions };
}

async function answerOne(
  deps: Camt055Deps,
  company: CompanyConfig,
  ctx: {
    file: { name: string };
    tx: Camt055Transaction;
    request: { assignmentId: string; caseId?: string; assignerName?: string };
    version: Camt029Version;
  },
): Promise<Camt029Transaction> {
  const { tx, request } = ctx;
  const base = baseOf(tx);
  let result: CancelResult;
  try {
    result = await cancelPayment(deps, {
      ref: tx.originalEndToEndId,
      reason: `camt.055 ${request.assignmentId}: ${reasonOf(tx)}`,
      ...erpInput(deps, company, ctx),
    });
  } catch (error) {
    const refusal = refusalOf(ctx, tx, error);
    if (refusal === undefined) throw error;
    return refusal;
  }
  if (result.outcome === 'confirm') throw new Error('a camt.055 request is never asked to confirm');
  const id = { cancellationStatusId: result.request.id };
  if (result.outcome === 'at-bank' || result.outcome === 'awaiting-confirmation') {
    // Owed a final answer once the request ends (written by the status report).
    await deps.store.cancellationAnswers.markPending(result.request.id, {
      file: ctx.file.name,
      version: ctx.version,
      ...(tx.originalInstructionId ? { instructionId: tx.originalInstructionId } : {}),
    });
    return {
      ...base,
      ...id,
      status: 'PDCR',
      reasonText: `${where(ctx, tx)}: the bank has not confirmed the cancellation yet; a final answer follows in the status folder once it has`,
    };
  }
  return { ...base, ...id, status: 'ACCR' };
}

/** The transaction as the camt.029 names it back. */
function baseOf(tx: Camt055Transaction): Pick<Camt029Transaction, 'originalEndToEndId' | 'originalInstructionId'> {
  return {
    originalEndToEndId: tx.originalEndToEndId,
    ...(tx.originalInstructionId ? { originalInstructionId: tx.originalInstructionId } : {}),
  };
}

/** Where the transaction is in the camt.055, for the answer's reason. */
function where(ctx: { file: { name: string } }, tx: Camt055Transaction): string {
  return `${ctx.file.name} line ${tx.line} (${tx.path})`;
}

function reasonOf(tx: Camt055Transaction): string {
  return [tx.reasonCode, tx.reasonText].filter((x) => x).join(': ') || 'cancellation requested by the ERP';
}

/** Who asks, from where, for which company: the ERP, by its camt.055. */
function erpInput(
  deps: Camt055Deps,
  company: CompanyConfig,
  ctx: { file: { name: string }; request: { assignmentId: string; caseId?: string; assignerName?: string } },
): Omit<CancelInput, 'ref' | 'reason'> {
  const { request } = ctx;
  return {
    actor: `erp:${company.id}${request.assignerName ? ` (${request.assignerName})` : ''}`.slice(0, 200),
    origin: `camt.055 ${ctx.file.name}`.slice(0, 200),
    companies: deps.companies,
    company: company.id,
    yes: true,
    erp: { messageId: request.assignmentId, ...(request.caseId ? { caseId: request.caseId } : {}) },
  };
}

/** A camt.055's lines of one bulk not yet sent: each tx with its payment. */
type Together = { tx: Camt055Transaction; payment: PaymentToCancel }[];

/**
 * The transactions not yet answered whose payments wait in the same bulk not yet sent as `tx`'s,
 * when there are at least two. An ERP that calls off its payment run names every line of it:
 * withdrawn one by one, each line's withdrawal queued the bulk's other lines again in a new bulk,
 * which the next line withdrew again, a bulk and a request per line and n²/2 lines moved.
 * Withdrawn together, the bulk's lines the request does not name go again once. A bulk at the
 * bank is cancelled there as a whole by the first of its lines; the others then wait in the new
 * bulk, and are withdrawn together from there.
 */
async function waitingTogether(
  deps: Camt055Deps,
  company: CompanyConfig,
  tx: Camt055Transaction,
  all: readonly Camt055Transaction[],
  answered: ReadonlyMap<Camt055Transaction, Camt029Transaction>,
): Promise<Together | undefined> {
  const [payment, ...more] = await deps.store.cancellations.resolve(tx.originalEndToEndId, company.id);
  if (payment === undefined || more.length > 0 || !waitsInUnsentBulk(payment)) return undefined;
  const ofBulk = new Map(
    (await deps.store.cancellations.paymentsOfBulk(payment.bulkId!)).map((p) => [p.endToEndId, p]),
  );
  const together: Together = [];
  const taken = new Set<string>();
  for (const other of all) {
    const p = answered.has(other) ? undefined : ofBulk.get(other.originalEndToEndId);
    // A line named twice is answered once here, and again by itself (already cancelled).
    if (p === undefined || !waitsInUnsentBulk(p) || taken.has(p.id)) continue;
    taken.add(p.id);
    together.push({ tx: other, payment: p });
  }
  return together.length > 1 ? together : undefined;
}

function waitsInUnsentBulk(payment: PaymentToCancel): boolean {
  return payment.state === 'queued' && payment.bulkState === 'pending' && payment.bulkId !== undefined;
}

/** Withdraws `together` in one request; each transaction is answered as that request ended. */
async function answerTogether(
  deps: Camt055Deps,
  company: CompanyConfig,
  ctx: { file: { name: string }; request: { assignmentId: string; caseId?: string; assignerName?: string } },
  together: Together,
): Promise<[Camt055Transaction, Camt029Transaction][]> {
  const { request } = ctx;
  const reasons = [...new Set(together.map(({ tx }) => reasonOf(tx)))];
  let result: CancelResult;
  try {
    result = await cancelPayment(deps, {
      ref: `camt.055 ${request.assignmentId}`.slice(0, 200),
      reason: `camt.055 ${request.assignmentId}: ${reasons.join('; ')}`.slice(0, 500),
      ...erpInput(deps, company, ctx),
      payments: together.map(({ payment }) => payment),
    });
  } catch (error) {
    const refusals: [Camt055Transaction, Camt029Transaction][] = [];
    for (const { tx } of together) {
      const refusal = refusalOf(ctx, tx, error);
      if (refusal === undefined) throw error;
      refusals.push([tx, refusal]);
    }
    return refusals;
  }
  // Lines that wait in a bulk not yet sent are withdrawn at once: no bank, no second person.
  if (result.outcome !== 'withdrawn' && result.outcome !== 'already')
    throw new Error(`a withdrawal of waiting lines ended ${result.outcome}`);
  return together.map(({ tx }) => [tx, { ...baseOf(tx), cancellationStatusId: result.request.id, status: 'ACCR' }]);
}

/** The RJCR answer of a cancellation the use case refused (or found nothing for); undefined for any other error. */
function refusalOf(
  ctx: { file: { name: string } },
  tx: Camt055Transaction,
  error: unknown,
): Camt029Transaction | undefined {
  if (!isSettleError(error, 'ERR_CANCEL_REFUSED') && !isSettleError(error, 'ERR_CANCEL_NOT_FOUND')) return undefined;
  return {
    ...baseOf(tx),
    status: 'RJCR',
    reasonCode: error.code === 'ERR_CANCEL_NOT_FOUND' ? 'NOT_FOUND' : refusalCode(error.details),
    reasonText: `${where(ctx, tx)}: ${error.message}`,
  };
}

/** The line's state when it was refused (ACSP, RJCT, …), else a general code. */
function refusalCode(details: unknown): string {
  const state = (details as { state?: unknown } | undefined)?.state;
  return typeof state === 'string' && /^[A-Z]{4}$/.test(state) ? state : 'NOT_CANCELLABLE';
}
