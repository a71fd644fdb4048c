// A plan: which rows move to which state, and the rows written beside them, as a use case
// decided it from the rows it read (the planners beside this file). The store applies a plan in
// one transaction, through its one transition function, and decides nothing
// (src/store/apply-plan.ts): it only refuses a plan whose rows are no longer as they were read
// (optimistic concurrency), and then nothing of it is written. These are the only modules of
// src/domain/plans the store may import (.dependency-cruiser.cjs, "store-decides-nothing").
import type { RecordedText } from '../recorded-text.js';
import type { BankStatus, BasketState, BulkState, FileState, PaymentState } from '../states.js';
import type { CauseInput } from '../transition-cause.js';

/** What moves: the four entities, and a bulk's own bank status (a column beside its state). */
export interface PlanStateOf {
  payment_file: FileState;
  bulk: BulkState;
  bank_status: BankStatus;
  payment: PaymentState;
  basket: BasketState;
}

export type PlanKind = keyof PlanStateOf;

/** The path a change came through, kept with its transition row. */
export type PlanSource = 'pickup' | 'submit' | 'approve' | 'poll' | 'event' | 'lookup' | 'operator' | 'cancel';

/** A message for the ERP kept on a line (its status files show it). */
export interface PlanMessage extends Partial<RecordedText> {
  category: string;
  code: string;
  message: string;
}

/** Rows of one kind that make one move. */
export interface PlannedMove<K extends PlanKind = PlanKind> {
  step: 'move';
  kind: K;
  /** The rows: by id, or every line of one bulk. */
  ids: readonly string[] | { bulkId: string };
  to: PlanStateOf[K];
  /**
   * The states the rows were read in. A row found in another state when the plan is applied was
   * moved meanwhile: the plan is refused (ERR_STATE_TRANSITION_ILLEGAL), unless `otherwise` is
   * 'leave', when that row stays as it is. Absent: the move is checked by the state machine alone.
   */
  from?: readonly PlanStateOf[K][];
  otherwise?: 'refuse' | 'leave';
  cause: CauseInput;
  source: PlanSource;
  /** As transition(): 'tolerant' for a status a bank reported, which may come twice or late. */
  mode?: 'strict' | 'tolerant';
  /** Payments: `to` is also the bank's own status (the bank reported it). */
  bankReported?: boolean;
  /** Payments: the messages kept on each moved payment (replacing any it had). */
  messages?: readonly PlanMessage[];
  /** A bulk → sent: the bank's payment id it is known by now, and its last problem cleared. */
  sentAs?: { bankPaymentId: string; bankId?: string | undefined; consentId?: string | undefined };
}

/**
 * A new bulk of the same file, debtor account, execution date and batch booking as `like`,
 * after the file's existing bulks (a new position: a new idempotency key), for `paymentIds`,
 * which move into it (→ queued). Its id is the store's; later steps name it as "the requeued bulk".
 */
export interface PlannedRequeue {
  step: 'requeue';
  like: string;
  paymentIds: readonly string[];
  /** The states the lines were read in (as PlannedMove.from; refused when one moved meanwhile). */
  from?: readonly PaymentState[];
  cause: CauseInput;
  source: PlanSource;
}

/** A cancellation request read open: if it is closed when the plan is applied, the plan is stale. */
export interface ExpectOpenCancellation {
  step: 'expect-open-cancellation';
  id: string;
  /** 'refuse': ERR_CANCEL_REFUSED; 'done': someone applied this plan already, nothing is written. */
  whenClosed: 'refuse' | 'done';
}

export interface CloseCancellation {
  step: 'close-cancellation';
  id: string;
  outcome: 'withdrawn' | 'cancelled';
  /** The bulk the `requeue` step of this plan made is kept as the request's resent bulk. */
  resent: boolean;
}

/** A hold read undecided, with its first release (or none) as read; otherwise the plan is stale. */
export interface ExpectUndecidedHold {
  step: 'expect-undecided-hold';
  id: string;
  firstReleasedPerson?: string;
}

/** The first of a hold's two releases: recorded, nothing moves. */
export interface FirstRelease {
  step: 'first-release';
  id: string;
  by: string;
  person: string;
  reason: string;
}

/** A person's decision on a hold, kept on the held row (who, when, why). */
export interface DecideHold {
  step: 'decide-hold';
  id: string;
  decision: 'released' | 'dropped';
  by: string;
  reason: string;
}

export type PlanStep =
  | PlannedMove
  | PlannedRequeue
  | ExpectOpenCancellation
  | CloseCancellation
  | ExpectUndecidedHold
  | FirstRelease
  | DecideHold;

/**
 * The first and last line numbers of a planned bulk's lines in their file (bulk-plan.ts): the
 * store moves the lines into their bulk through the file's lines in that span, not through
 * every line of the file.
 */
export interface LineSpan {
  first: number;
  last: number;
}

/** Every row a plan writes carries the one instant the store applies it at (its clock's). */
export interface Plan {
  /** In order: a step may depend on an earlier one (a requeue before the close that names it). */
  steps: readonly PlanStep[];
}

/** What applying a plan made: the requeued bulk's id, when the plan had a requeue step. */
export interface AppliedPlan {
  /** False when an `expect-open-cancellation` step found the plan applied already. */
  applied: boolean;
  requeuedBulkId?: string;
}
