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
import type { Store } from '../../src/store/index.js';
import { cancelPayment, type CancelDeps, type CancelResult } from './cancel.js';

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
  const transactions: Camt029Transaction[] = [];
  for (const tx of request.transactions)
    transactions.push(await answerOne(deps, company, { file, tx, request, version }));
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
  const base = {
    originalEndToEndId: tx.originalEndToEndId,
    ...(tx.originalInstructionId ? { originalInstructionId: tx.originalInstructionId } : {}),
  };
  const where = `${ctx.file.name} line ${tx.line} (${tx.path})`;
  const reason = [tx.reasonCode, tx.reasonText].filter((x) => x).join(': ') || 'cancellation requested by the ERP';
  let result: CancelResult;
  try {
    result = await cancelPayment(deps, {
      ref: tx.originalEndToEndId,
      reason: `camt.055 ${request.assignmentId}: ${reason}`,
      actor: `erp:${company.id}${request.assignerName ? ` (${request.assignerName})` : ''}`.slice(0, 200),
      origin: `camt.055 ${ctx.file.name}`.slice(0, 200),
      companies: deps.companies,
      company: company.id,
      yes: true,
      erp: { messageId: request.assignmentId, ...(request.caseId ? { caseId: request.caseId } : {}) },
    });
  } catch (error) {
    if (isSettleError(error, 'ERR_CANCEL_REFUSED') || isSettleError(error, 'ERR_CANCEL_NOT_FOUND'))
      return {
        ...base,
        status: 'RJCR',
        reasonCode: error.code === 'ERR_CANCEL_NOT_FOUND' ? 'NOT_FOUND' : refusalCode(error.details),
        reasonText: `${where}: ${error.message}`,
      };
    throw error;
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
      reasonText: `${where}: the bank has not confirmed the cancellation yet; a final answer follows in the status folder once it has`,
    };
  }
  return { ...base, ...id, status: 'ACCR' };
}

/** The line's state when it was refused (ACSP, RJCT, …), else a general code. */
function refusalCode(details: unknown): string {
  const state = (details as { state?: unknown } | undefined)?.state;
  return typeof state === 'string' && /^[A-Z]{4}$/.test(state) ? state : 'NOT_CANCELLABLE';
}
