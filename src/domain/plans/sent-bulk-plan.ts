// What a bank's taking a bulk moves (jobs/submit): the bulk → sent under the bank's payment id,
// its lines to the status the bank's answer gave them (the bank has them) or `sent` where it gave
// none, and the bulk's own bank status. Set-based: one move by bulk when the answer names every
// line with one status, or none at all; otherwise one move per status, by the lines' ids (read
// for the plan: linesNeeded). Line moves are tolerant: a status event that overtook the answer
// keeps its line where it is, and a repeated answer (an idempotent replay) moves nothing more.
import { canonicalBankStatus, type BankStatus, type BulkState, type PaymentState } from '../states.js';
import type { Plan, PlannedMove, PlanSource, PlanStep } from './plan.js';
import { cause as causes, type CauseInput } from '../transition-cause.js';
import { addTo } from '../group.js';

/** What the plan needs of the bulk, as the use case read it. */
export interface SentBulkRead {
  id: string;
  state: BulkState;
  bankPaymentId?: string;
  lineCount: number;
}

/** One of the bulk's lines, for an answer that gives its lines different statuses. */
export interface SentLineRead {
  id: string;
  endToEndId: string;
}

/** One line of a bank's answer: its end-to-end id and the status the bank gave it. */
export interface ReportedPayment {
  endToEndId: string;
  status: string;
}

/** The bank took the bulk (201, or 200 with Idempotent-Replayed), or a lookup or a person found it there. */
export interface SentAnswer {
  bankPaymentId: string;
  /** Why, for the transition log; 'bank accepted' unless a lookup or a person found it. */
  cause?: CauseInput;
  /** The transaction status the bank answered with, when it gave one. */
  bankStatus?: string;
  source?: PlanSource;
  /** The bank and consent the bulk went under, when settle sent it (not when a lookup found it). */
  bankId?: string;
  consentId?: string;
  /**
   * The status the bank's answer gave each of the bulk's lines, by end-to-end id (a POST's answer
   * may list them). A line it names moves to that status, which the bank has, instead of `sent`;
   * when it names every line with one status, they move together (the poll that reports the same
   * later writes nothing). Lines it does not name, or names with an unknown code, become `sent`.
   */
  paymentStatuses?: readonly ReportedPayment[];
}

/** The known statuses the answer gives lines, by end-to-end id (an unknown code names none). */
function statusByLine(answer: SentAnswer): Map<string, BankStatus> {
  const byLine = new Map<string, BankStatus>();
  for (const line of answer.paymentStatuses ?? []) {
    const status = canonicalBankStatus(line.status);
    if (status !== undefined) byLine.set(line.endToEndId, status);
  }
  return byLine;
}

/** The one status every line moves to together, or undefined when the lines part. */
function together(bulk: SentBulkRead, byLine: Map<string, BankStatus>): PaymentState | undefined {
  const statuses = new Set(byLine.values());
  if (statuses.size === 0) return 'sent';
  if (statuses.size === 1 && byLine.size === bulk.lineCount) return [...statuses][0];
  return undefined;
}

/** Whether the plan needs the bulk's lines (ids and end-to-end ids): when the answer parts them. */
export function linesNeeded(bulk: SentBulkRead, answer: SentAnswer): boolean {
  return together(bulk, statusByLine(answer)) === undefined;
}

/** The plan for `answer` on `bulk`; `lines` are the bulk's lines when linesNeeded says so. */
export function planSentBulk(bulk: SentBulkRead, answer: SentAnswer, lines: readonly SentLineRead[] = []): Plan {
  const { bankPaymentId, cause = causes.bankAccepted(), source = 'submit' } = answer;
  const steps: PlanStep[] = [];
  // A repeated answer for the same bank payment (e.g. an idempotent replay) moves the bulk no more.
  const repeat = bulk.state === 'sent' && bulk.bankPaymentId === bankPaymentId;
  if (!repeat)
    steps.push({
      step: 'move',
      kind: 'bulk',
      ids: [bulk.id],
      from: [bulk.state],
      to: 'sent',
      cause,
      source,
      sentAs: { bankPaymentId, bankId: answer.bankId, consentId: answer.consentId },
    });
  const lineMove = { step: 'move', kind: 'payment', cause, source, mode: 'tolerant' } as const;
  const byLine = statusByLine(answer);
  const all = together(bulk, byLine);
  if (all !== undefined)
    steps.push({ ...lineMove, ids: { bulkId: bulk.id }, to: all, ...(all === 'sent' ? {} : { bankReported: true }) });
  else {
    const groups = new Map<PaymentState, string[]>();
    for (const line of lines) {
      const to = byLine.get(line.endToEndId) ?? 'sent';
      addTo(groups, to, line.id);
    }
    for (const [to, ids] of groups)
      steps.push({ ...lineMove, ids, to, bankReported: to !== 'sent' } satisfies PlannedMove<'payment'>);
  }
  const status = answer.bankStatus === undefined ? undefined : canonicalBankStatus(answer.bankStatus);
  if (status !== undefined)
    steps.push({
      step: 'move',
      kind: 'bank_status',
      ids: [bulk.id],
      to: status,
      cause: causes.bankStatus(cause),
      source,
      mode: 'tolerant',
    });
  return { steps };
}
