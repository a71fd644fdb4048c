// Why a state changed, as the transition function records it with each move (src/store/transitions.ts,
// the `cause` and `cause_text` columns, migration 0764): its English, as settle always wrote it,
// and the same sentence as recorded text (src/domain/recorded-text.ts, area `historyCause`), so a
// payment's history reads in the reader's language (docs/i18n.md, "Recorded text"). Every cause
// settle writes is made here; a plain string (a caller outside settle's jobs, a test) is recorded
// with its English alone and reads as written. The English of each constructor is byte for byte
// what the jobs wrote before (test/i18n/history-cause.test.ts).
import { instantFigure, recorded, type RecordedText, type RecordedValue } from './recorded-text.js';

/** A recorded cause: the English stored in `transitions.cause`, and its sentence when settle made it. */
export interface Cause {
  readonly english: string;
  readonly said?: RecordedText;
}

/** What a move may be given as its cause: a recorded cause, or words recorded in English alone. */
export type CauseInput = Cause | string;

export function causeOf(input: CauseInput): Cause {
  return typeof input === 'string' ? { english: input } : input;
}

function made(english: string, key: string, values?: Readonly<Record<string, RecordedValue | undefined>>): Cause {
  return { english, said: recorded(`historyCause.${key}`, values) };
}

/** A cause that names another: recorded only when the inner one was (else its English alone). */
function wrapping(inner: CauseInput, english: (text: string) => string, key: string, values = {}): Cause {
  const c = causeOf(inner);
  const text = english(c.english);
  return c.said === undefined ? { english: text } : made(text, key, { ...values, cause: c.said });
}

/** The path a bank status came through, as the status job names it (`poll`, `event`, `lookup`, …). */
export type StatusPath = string;

export const cause = {
  // Pickup and submit.
  pickup: (fileName: string) => made(`pickup ${fileName}`, 'pickup', { file: fileName }),
  submit: () => made('submit', 'submit'),
  submitRun: (runId: string) => made(`submit run ${runId}`, 'submitRun', { run: runId }),
  submitRunReleased: (runId: string) =>
    made(`submit run ${runId}: released from hold`, 'submitRunReleased', { run: runId }),
  submitRunFoundAtBank: (runId: string) =>
    made(`submit run ${runId}: found at the bank before sending`, 'submitRunFoundAtBank', { run: runId }),
  bulksPlanned: (count: number) => made(`${count} bulk(s) planned`, 'bulksPlanned', { count, n: String(count) }),
  send: () => made('send', 'send'),
  bankAccepted: () => made('bank accepted', 'bankAccepted'),
  bankAcceptedReplay: () => made('bank accepted (idempotent replay)', 'bankAcceptedReplay'),
  foundBeforeSending: () =>
    made('found at the bank before sending (database older than the bank)', 'foundBeforeSending'),
  bankRejected: () => made('bank rejected', 'bankRejected'),
  /** The bank refused the send: its HTTP status and title, as it gave them (either may be absent). */
  bankRefused: (status: number | undefined, title: string | undefined) => {
    const english = `bank refused: ${status ?? ''} ${title ?? ''}`.trim();
    const answer = `${status ?? ''} ${title ?? ''}`.trim();
    return answer === '' ? { english } : made(english, 'bankRefused', { answer });
  },
  noAnswer: () => made('no answer', 'noAnswer'),
  retryableAnswer: () => made('retryable answer', 'retryableAnswer'),
  retentionPassed: () => made('idempotency retention passed', 'retentionPassed'),
  noAnswerWithinRetention: () => made('no answer within the idempotency retention', 'noAnswerWithinRetention'),
  outcomeOpen: (answer: string | number) =>
    made(`bank answer leaves the outcome open: ${answer}`, 'outcomeOpen', { answer: String(answer) }),
  cutOffPassed: (time: string) => made(`cut-off ${time} passed`, 'cutOffPassed', { time }),
  // Unknown outcomes.
  foundByEndToEndId: () => made('unknown resolved: found at the bank by end-to-end id', 'foundByEndToEndId'),
  notFoundAfter: (days: number) =>
    made(
      `not found at the bank ${days} days after its execution date; a person decides whether to pay again`,
      'notFoundAfter',
      { days, n: String(days) },
    ),
  resolvedByPerson: (reason: string) => made(`resolved by a person: ${reason}`, 'resolvedByPerson', { reason }),
  // Bank statuses.
  /** A status the bank reported through `path` (poll, event, lookup) at `at`. */
  statusReport: (path: StatusPath, status: string, at: Date) =>
    made(`${path} ${status} at ${at.toISOString()}`, 'statusReport', {
      path,
      status,
      at: instantFigure(at),
    }),
  bankStatus: (inner: CauseInput) => wrapping(inner, (text) => `bank status: ${text}`, 'bankStatus'),
  everyLineFinal: () => made('every line final', 'everyLineFinal'),
  everyBulkFinal: () => made('every bulk final', 'everyBulkFinal'),
  lastBulkCancelled: () => made('every bulk final (the last one cancelled)', 'lastBulkCancelled'),
  // Holds.
  holdDecided: (decision: 'released' | 'dropped', by: string, reason: string) =>
    made(`${decision} by ${by}: ${reason}`, decision === 'released' ? 'released' : 'dropped', { by, reason }),
  // Cancellation.
  cancelled: (requestedBy: string, confirmedBy: string | undefined, reason: string) =>
    confirmedBy
      ? made(`cancelled by ${requestedBy}, confirmed by ${confirmedBy}: ${reason}`, 'cancelledConfirmed', {
          requestedBy,
          confirmedBy,
          reason,
        })
      : made(`cancelled by ${requestedBy}: ${reason}`, 'cancelled', { requestedBy, reason }),
  bankConfirmedCancel: (inner: CauseInput) =>
    wrapping(inner, (text) => `bank confirmed CANC; ${text}`, 'bankConfirmedCancel'),
  requeued: (oldBulkId: string, inner: CauseInput) =>
    wrapping(inner, (text) => `queued again after its bulk ${oldBulkId} was cancelled (${text})`, 'requeued', {
      bulk: oldBulkId,
    }),
  // Approval.
  approve: () => made('approve', 'approve'),
  approveRun: (runId: string) => made(`approve run ${runId}`, 'approveRun', { run: runId }),
  basketCreated: () => made('bank created basket', 'basketCreated'),
  basketCreatedReplay: () => made('bank created basket (replay)', 'basketCreatedReplay'),
  linkIssued: () => made('approval link issued', 'linkIssued'),
  linkReissued: () => made('approval link re-issued', 'linkReissued'),
  authorised: () => made('authorised', 'authorised'),
  basketAuthorised: () => made('bank reports the basket authorised', 'basketAuthorised'),
  eventAuthorised: (eventId: string) => made(`event ${eventId}: authorised`, 'eventAuthorised', { event: eventId }),
  basketFailed: () => made('failed', 'basketFailed'),
  linkExpired: () => made('approval link expired', 'linkExpired'),
  linkUsedIncomplete: () => made('approval link used without completing', 'linkUsedIncomplete'),
  linkUsedMoreNeeded: () => made('approval link used; more approvers needed', 'linkUsedMoreNeeded'),
} as const;
