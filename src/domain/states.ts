// The state machines of settle as tables (architecture §2.4). Every state change of a payment
// file, a bulk, a payment or a signing basket goes through `transition` or `decideUpdate`
// here, and the store records it with time and cause. Status from polling and from webhooks
// uses the same functions, so duplicate and out-of-order events are harmless: a bank status
// carries a rank, and an update whose rank is not higher than the current one is "stale".
import { SettleError } from './errors.js';

export interface StateMachine<S extends string> {
  readonly name: string;
  readonly states: readonly S[];
  /** States a new entity may start in. */
  readonly initial: readonly S[];
  /** States nothing leaves (except the explicit upgrades listed in `transitions`). */
  readonly terminal: ReadonlySet<S>;
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  /** Progress order; when present, an update to a lower or equal rank is stale, not illegal. */
  readonly rank?: (state: S) => number;
}

/**
 * ISO 20022 transaction status codes as the bank reports them (facts sheet §7), canonical
 * UPPERCASE. The spec writes them lowercase and events uppercase; `canonicalBankStatus`
 * accepts both.
 */
export const BANK_STATUSES = [
  'RCVD',
  'PDNG',
  'ACTC',
  'ACCP',
  'ACFC',
  'ACWP',
  'ACWC',
  'PATC',
  'PART',
  'ACSP',
  'ACSC',
  'ACCC',
  'RJCT',
  'CANC',
] as const;
export type BankStatus = (typeof BANK_STATUSES)[number];

/** Settled, rejected or cancelled: nothing more will happen to the money. */
export const TERMINAL_BANK_STATUSES: ReadonlySet<BankStatus> = new Set<BankStatus>(['ACSC', 'ACCC', 'RJCT', 'CANC']);

// Progress order of the ISO flow: received → technically valid → customer profile → funds
// checked → settlement in progress → settled on the debtor side → settled on the creditor side.
// Pending and the partial/"with change" codes sit between the steps they can follow.
const BANK_RANK: Readonly<Record<BankStatus, number>> = {
  RCVD: 10,
  PDNG: 15,
  PATC: 18,
  ACTC: 20,
  ACCP: 30,
  ACFC: 35,
  ACWP: 40,
  ACWC: 45,
  PART: 48,
  ACSP: 50,
  ACSC: 80,
  ACCC: 90,
  RJCT: 100,
  CANC: 100,
};

export function isBankStatus(text: string): text is BankStatus {
  return (BANK_STATUSES as readonly string[]).includes(text);
}

/** "rcvd", "Rcvd" or "RCVD" → "RCVD"; undefined for anything that is not a known code. */
export function canonicalBankStatus(text: string): BankStatus | undefined {
  const upper = text.trim().toUpperCase();
  return isBankStatus(upper) ? upper : undefined;
}

export function bankStatusRank(status: BankStatus): number {
  return BANK_RANK[status];
}

// ---------------------------------------------------------------------------------------------
// Payment files

export const FILE_STATES = [
  'received',
  'accepted',
  'rejected',
  'duplicate',
  'submitted',
  'completed',
  'attention',
] as const;
export type FileState = (typeof FILE_STATES)[number];

export const fileMachine: StateMachine<FileState> = {
  name: 'payment file',
  states: FILE_STATES,
  initial: ['received', 'accepted', 'rejected', 'duplicate'],
  terminal: new Set<FileState>(['rejected', 'duplicate', 'completed']),
  transitions: {
    received: ['accepted', 'rejected', 'duplicate'],
    accepted: ['submitted', 'attention'],
    submitted: ['completed', 'attention'],
    // A person resolved what needed attention; the file continues where it was.
    attention: ['submitted', 'completed'],
    rejected: [],
    duplicate: [],
    completed: [],
  },
};

// ---------------------------------------------------------------------------------------------
// Bulks (one POST /bulk-payments each; the outbox row)

export const BULK_STATES = [
  'pending',
  'sending',
  'sent',
  'rejected',
  'unknown',
  'attention',
  'done',
  'cancelled',
] as const;
export type BulkState = (typeof BULK_STATES)[number];

export const bulkMachine: StateMachine<BulkState> = {
  name: 'bulk',
  states: BULK_STATES,
  initial: ['pending'],
  terminal: new Set<BulkState>(['rejected', 'done', 'cancelled']),
  transitions: {
    // Rejected without sending when settle refuses it first (its bank's cut-off has passed).
    pending: ['sending', 'cancelled', 'rejected'],
    // Back to pending only when the bank certainly did not take it (a 429/503 answer):
    // the retry reuses the stored idempotency key.
    sending: ['sent', 'rejected', 'unknown', 'pending'],
    // Unknown is resolved by looking it up, never by sending again blind.
    unknown: ['sent', 'rejected', 'attention'],
    attention: ['sent', 'rejected', 'cancelled'],
    sent: ['done', 'rejected', 'cancelled'],
    rejected: [],
    done: [],
    cancelled: [],
  },
};

// ---------------------------------------------------------------------------------------------
// Payments: our own states until the bank has the payment, then the bank's status codes.

// held: a likely duplicate of a payment accepted earlier (from another file or its own file),
// waiting for a person to release it (back to accepted, sent on the next submit) or drop it
// (CANC, never sent).
export const PAYMENT_STATES = ['accepted', 'held', 'queued', 'sent', 'unknown', ...BANK_STATUSES] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

const NON_TERMINAL_BANK = BANK_STATUSES.filter((s) => !TERMINAL_BANK_STATUSES.has(s));

function paymentTransitions(): Record<PaymentState, readonly PaymentState[]> {
  const table: Partial<Record<PaymentState, readonly PaymentState[]>> = {
    accepted: ['queued', 'CANC'],
    held: ['accepted', 'CANC'],
    // A status event can overtake our own record of the POST's answer: the bank having the
    // payment is proof enough that it was sent.
    queued: ['sent', 'unknown', 'accepted', ...BANK_STATUSES],
    sent: [...BANK_STATUSES],
    unknown: ['sent', ...BANK_STATUSES],
  };
  for (const from of NON_TERMINAL_BANK) {
    table[from] = BANK_STATUSES.filter((to) => bankStatusRank(to) > bankStatusRank(from));
  }
  // A payment whose bulk the bank cancelled while it waited (sent, RCVD), when the cancellation
  // named another payment of that bulk: it is queued again in a new bulk (jobs/cancel/cancel.ts).
  // Only settle moves a payment to `queued`; no bank status maps to it.
  table.sent = [...table.sent!, 'queued'];
  table.RCVD = [...table.RCVD!, 'queued'];
  // Settled on the debtor side may still become settled on the creditor side; nothing else moves.
  table.ACSC = ['ACCC'];
  table.ACCC = [];
  table.RJCT = [];
  table.CANC = [];
  return table as Record<PaymentState, readonly PaymentState[]>;
}

function paymentRank(state: PaymentState): number {
  if (state === 'accepted' || state === 'held') return 0;
  if (state === 'queued') return 1;
  if (state === 'unknown') return 2;
  if (state === 'sent') return 3;
  return bankStatusRank(state);
}

export const paymentMachine: StateMachine<PaymentState> = {
  name: 'payment',
  states: PAYMENT_STATES,
  initial: ['accepted', 'held'],
  terminal: TERMINAL_BANK_STATUSES,
  transitions: paymentTransitions(),
  rank: paymentRank,
};

/** The bank status of a bulk as a whole follows the same order as a payment's. */
export const bankStatusMachine: StateMachine<BankStatus> = {
  name: 'bank status',
  states: BANK_STATUSES,
  initial: [...BANK_STATUSES],
  terminal: TERMINAL_BANK_STATUSES,
  transitions: Object.fromEntries(
    BANK_STATUSES.map((s) => [s, paymentMachine.transitions[s].filter((t): t is BankStatus => isBankStatus(t))]),
  ) as unknown as Record<BankStatus, readonly BankStatus[]>,
  rank: bankStatusRank,
};

// ---------------------------------------------------------------------------------------------
// Signing baskets (approval)

export const BASKET_STATES = [
  'pending',
  'created',
  'link_issued',
  'authorised',
  'expired',
  'failed',
  'cancelled',
] as const;
export type BasketState = (typeof BASKET_STATES)[number];

/** Baskets still on their way to approval, in the order the approve step advances them. */
export const LIVE_BASKETS: readonly BasketState[] = ['pending', 'created', 'link_issued', 'expired'];

export const basketMachine: StateMachine<BasketState> = {
  name: 'signing basket',
  states: BASKET_STATES,
  initial: ['pending'],
  terminal: new Set<BasketState>(['authorised', 'failed', 'cancelled']),
  transitions: {
    pending: ['created', 'failed', 'cancelled'],
    created: ['link_issued', 'authorised', 'failed', 'cancelled'],
    link_issued: ['authorised', 'expired', 'failed', 'cancelled'],
    // An expired approval link is re-issued only when needed (links may be invoiced). The bank's word
    // wins over our clock: an approver may have signed just before the link expired, and we
    // learn it only after we marked the link expired.
    expired: ['link_issued', 'authorised', 'failed', 'cancelled'],
    authorised: [],
    failed: [],
    cancelled: [],
  },
};

// ---------------------------------------------------------------------------------------------

export function isState<S extends string>(machine: StateMachine<S>, text: string): text is S {
  return (machine.states as readonly string[]).includes(text);
}

export function canTransition<S extends string>(machine: StateMachine<S>, from: S, to: S): boolean {
  return machine.transitions[from]?.includes(to) ?? false;
}

/** Returns `to` when the move is allowed; throws ERR_STATE_TRANSITION_ILLEGAL otherwise. */
export function transition<S extends string>(machine: StateMachine<S>, from: S, to: S): S {
  if (!isState(machine, from) || !isState(machine, to) || !canTransition(machine, from, to)) {
    throw illegal(machine, from, to);
  }
  return to;
}

export type UpdateDecision = 'apply' | 'duplicate' | 'stale';

/**
 * For updates that may arrive twice or out of order (polling and webhooks): `apply` a legal
 * move, report a repeat as `duplicate`, and an older or superseded status as `stale` (the
 * caller keeps the current state). Only a move that is neither legal nor explained by order
 * throws ERR_STATE_TRANSITION_ILLEGAL.
 */
export function decideUpdate<S extends string>(machine: StateMachine<S>, from: S, to: S): UpdateDecision {
  if (!isState(machine, from) || !isState(machine, to)) throw illegal(machine, from, to);
  if (from === to) return 'duplicate';
  if (canTransition(machine, from, to)) return 'apply';
  if (machine.terminal.has(from)) return 'stale';
  if (machine.rank && machine.rank(to) <= machine.rank(from)) return 'stale';
  throw illegal(machine, from, to);
}

function illegal(machine: { readonly name: string }, from: string, to: string): SettleError {
  return new SettleError('ERR_STATE_TRANSITION_ILLEGAL', `A ${machine.name} cannot move from "${from}" to "${to}".`, {
    details: { machine: machine.name, from, to },
  });
}
