// THE transition function (architecture §2.4): every state change of a payment file, bulk,
// payment or signing basket — and of a bulk's bank status — is made here and nowhere else.
// One call moves a set of rows of one kind to one state: the current states are read (under row
// locks on MariaDB), each move is decided by the domain state machine, and the rows that move
// change in ONE UPDATE, after ONE INSERT … SELECT that copies their current state into their
// transition rows (who, from what, to what, why, when, through which path): the database writes
// a row per payment, settle sends only the ids. When a bulk's payments all make one move together, one
// row for the bulk's payments (BULK_LINES) stands for all of them. Polling, webhooks, the operator
// and cancellation all come here, so a duplicate or out-of-order report is harmless wherever it
// comes from. Each move also keeps the company's rows per state and a bulk's lines per state
// (src/store/state-counts.ts), and a move of payments marks their files (src/store/lines-changed.ts).
import type { Knex } from 'knex';
import { SettleError } from '../domain/errors.js';
import {
  bankStatusMachine,
  basketMachine,
  bulkMachine,
  fileMachine,
  paymentMachine,
  transition as checkTransition,
  type BankStatus,
  type BasketState,
  type BulkState,
  type FileState,
  type PaymentState,
  type StateMachine,
} from '../domain/states.js';
import type { LineSpan } from '../domain/plans/plan.js';
import { lockingRead, placeholders, readRows, write } from './direct-sql.js';
import type { RecordedText } from '../domain/recorded-text.js';
import type { CauseInput } from '../domain/transition-cause.js';
import { cannotJoin, JOINING_STATE } from './join-refusal.js';
import { decide, decideRows, noDecisions, type Decisions } from './transition-decisions.js';
import { markLinesChanged } from './lines-changed.js';
import { causeColumns, insertBulkLinesRow, logTransitions } from './transition-log.js';
import { chunks, IDS_PER_STATEMENT, instant, toStr, type Row } from './rows.js';
import {
  COUNTED_TABLES,
  countBulkLineMoves,
  countBulkLines,
  countBulkLinesMove,
  countMove,
  countRows,
  settleCounts,
  type CountedKind,
} from './state-counts.js';

export { BULK_LINES } from './transition-log.js';

/** What moves: the four entities, and a bulk's own bank status (a column beside its state). */
export type TransitionKind = 'payment_file' | 'bulk' | 'bank_status' | 'payment' | 'basket';
/** The entities a transition row names (a bulk's bank status is the bulk's). */
export const ENTITY_TYPES = ['payment_file', 'bulk', 'basket', 'payment'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface StateOf {
  payment_file: FileState;
  bulk: BulkState;
  bank_status: BankStatus;
  payment: PaymentState;
  basket: BasketState;
}

/** The path a change came through, kept with its transition row. */
export const TRANSITION_SOURCES = [
  'pickup',
  'submit',
  'approve',
  'poll',
  'event',
  'lookup',
  'operator',
  'cancel',
] as const;
export type TransitionSource = (typeof TRANSITION_SOURCES)[number];

interface KindSpec {
  entityType: EntityType;
  table: string;
  column: 'state' | 'bank_status';
  machine: StateMachine<string>;
}

const KINDS: Record<TransitionKind, KindSpec> = {
  payment_file: { entityType: 'payment_file', table: 'payment_files', column: 'state', machine: fileMachine },
  bulk: { entityType: 'bulk', table: 'bulks', column: 'state', machine: bulkMachine },
  bank_status: { entityType: 'bulk', table: 'bulks', column: 'bank_status', machine: bankStatusMachine },
  payment: { entityType: 'payment', table: 'payments', column: 'state', machine: paymentMachine },
  basket: { entityType: 'basket', table: 'baskets', column: 'state', machine: basketMachine },
} as Record<TransitionKind, KindSpec>;

/** Whose rows per state the counters keep (src/store/state-counts.ts): files', bulks' and payments' states. */
function countedKind({ entityType, column }: KindSpec): CountedKind | undefined {
  return column === 'state' && entityType in COUNTED_TABLES ? (entityType as CountedKind) : undefined;
}

export interface TransitionRequest<K extends TransitionKind> {
  kind: K;
  /**
   * The rows to move: by id, or (payments) every payment of one bulk. A bulk's payments are found
   * through their bulk_id index, and the INSERT and UPDATE name the bulk and the states that
   * move instead of a thousand ids: short statements, no id lists to bind three times.
   */
  ids: readonly string[] | { bulkId: string; joining?: never } | JoiningPayments;
  to: StateOf[K];
  /** Why: settle's recorded cause (src/domain/transition-cause.ts), or words kept in English alone. */
  cause: CauseInput;
  source: TransitionSource;
  at: Date;
  /**
   * 'strict' (default): a move the machine does not allow throws ERR_STATE_TRANSITION_ILLEGAL and
   * nothing moves. 'tolerant' (status reports, which may come twice or out of order): a repeat is
   * `duplicate`, an older status `stale`, a move no order explains `refused`; none of them moves.
   */
  mode?: 'strict' | 'tolerant';
  /** Other columns written in the same UPDATE (never a state column). */
  set?: Row;
  /** Payments: also record `to` as the bank's own status (the bank reported it). */
  bankReported?: boolean;
}

/**
 * Payments that join a bulk made in the same transaction, which has no payments yet: their
 * bulk_id is written in the UPDATE that moves them out of `accepted`, and one transition row for
 * the bulk's payments records the move.
 */
export interface JoiningPayments {
  bulkId: string;
  joining: readonly string[];
  /** The file the bulk is of: every joining payment must be one of its payments. */
  fileId: string;
  /** The file's company (the payments' counters, src/store/state-counts.ts). */
  company: string;
  /** The first and last line numbers of the joining payments, when known (BulkPlan.lineSpan). */
  lineSpan?: LineSpan;
}

export interface TransitionResult {
  /** How many rows moved. */
  moved: number;
  duplicate: number;
  stale: number;
  /** Rows whose move no order of events explains (tolerant mode only; strict throws). */
  refused: string[];
}

export interface TransitionRecord {
  entityType: EntityType;
  entityId: string;
  from: string | undefined;
  to: string;
  /** The cause's English, as recorded. */
  cause: string;
  /** The cause as recorded text (migration 0764), absent on moves recorded before it or given as words alone. */
  said?: RecordedText;
  source?: TransitionSource;
  at: Date;
}

/** Moves every row of `ids` that may go to `to`, set-based; see the file comment. */
export async function transition<K extends TransitionKind>(
  trx: Knex.Transaction,
  request: TransitionRequest<K>,
): Promise<TransitionResult> {
  const spec = KINDS[request.kind];
  const set: Row = { ...(request.set ?? {}), [spec.column]: request.to, updated_at: instant(request.at) };
  if (request.bankReported && request.kind === 'payment') set.bank_status = request.to;
  const move: Move<K> = {
    spec,
    request,
    set,
    log: [spec.entityType, request.to, ...causeColumns(request.cause), request.source, instant(request.at)],
  };
  const ids = request.ids;
  const result = !('bulkId' in ids)
    ? await moveByIds(trx, move, ids)
    : ids.joining === undefined
      ? await moveBulkPayments(trx, move, ids.bulkId)
      : await moveJoiningPayments(trx, move, ids);
  await settleCounts(trx);
  return result;
}

/** What one call moves: the kind, the request, the UPDATE's columns and the transition rows' constants. */
interface Move<K extends TransitionKind> {
  spec: KindSpec;
  request: TransitionRequest<K>;
  set: Row;
  log: (string | null)[];
}

async function moveByIds<K extends TransitionKind>(
  trx: Knex.Transaction,
  move: Move<K>,
  wanted: readonly string[],
): Promise<TransitionResult> {
  const { spec, request } = move;
  const decided = noDecisions();
  const ids = [...new Set(wanted)];
  for (const part of chunks(ids, IDS_PER_STATEMENT)) {
    const rows = await readRows(
      trx,
      `select id, ${spec.column}, company${bulkColumn(spec)} from ${spec.table} where id in (${placeholders(part.length)})${lockingRead(trx)}`,
      part,
    );
    if (rows.length !== part.length) throw notFound(spec.entityType, part, rows);
    decideRows(spec, rows, request.to, request.mode ?? 'strict', decided);
  }
  await writeMoves(trx, move, decided.moved);
  countMoves(trx, move, decided);
  if (request.kind === 'payment') await markLinesChanged(trx, move.request.at, { lines: decided.moved });
  return resultOf(decided);
}

/**
 * Payments joining a new bulk: ONE conditional UPDATE per 4,000 ids writes bulk_id and the state,
 * and takes only payments of the plan's file that are in the state payments join from and in no bulk
 * (a payment in two bulks would be paid twice), within the plan's span of line numbers when it has
 * one (BulkPlan.lineSpan: the engine reads that span, not the whole file); the row locks are the UPDATE's own on MariaDB, and
 * SQLite's one writer holds the database. Nothing is read first: a plan that names a payment that
 * cannot join makes fewer rows change, and only then are its payments read, to say which payment and
 * why, and the error rolls the whole transaction back.
 */
async function moveJoiningPayments<K extends TransitionKind>(
  trx: Knex.Transaction,
  move: Move<K>,
  { bulkId, joining, fileId, company, lineSpan }: JoiningPayments,
): Promise<TransitionResult> {
  const { spec, request } = move;
  if (request.kind !== 'payment') throw new Error(`a ${spec.machine.name} cannot join a bulk`);
  const [present] = await readRows(trx, `select count(*) as n from ${spec.table} where bulk_id = ?`, [bulkId]);
  if (Number(present?.n ?? 0) !== 0) throw new Error(`bulk ${bulkId} already has payments: none may join it`);
  checkTransition(spec.machine, JOINING_STATE, request.to);
  const ids = [...new Set(joining)];
  let joined = 0;
  const [columns, values] = assignments({ ...move.set, bulk_id: bulkId });
  const span = lineSpan ? ' and line_number between ? and ?' : '';
  const spanValues = lineSpan ? [lineSpan.first, lineSpan.last] : [];
  for (const part of chunks(ids, IDS_PER_STATEMENT)) {
    joined += await write(
      trx,
      `update ${spec.table} set ${columns} where id in (${placeholders(part.length)})` +
        ` and file_id = ? and ${spec.column} = ? and bulk_id is null${span}`,
      [...values, ...part, fileId, JOINING_STATE, ...spanValues],
    );
  }
  if (joined !== ids.length) throw await cannotJoin(trx, ids, fileId, lineSpan);
  if (ids.length > 0) {
    countMove(trx, 'payment', company, { from: JOINING_STATE, to: request.to, rows: ids.length });
    countBulkLines(trx, bulkId, company, request.to, ids.length);
    await insertBulkLinesRow(trx, move.log, bulkId, JOINING_STATE);
    await markLinesChanged(trx, move.request.at, { fileId });
  }
  return { moved: ids.length, duplicate: 0, stale: 0, refused: [] };
}

/** The transition rows and the UPDATE of rows already decided, by id. */
async function writeMoves<K extends TransitionKind>(
  trx: Knex.Transaction,
  { spec, set, log }: Move<K>,
  moved: readonly string[],
): Promise<void> {
  const [columns, values] = assignments(set);
  for (const part of chunks(moved, IDS_PER_STATEMENT)) {
    const list = placeholders(part.length);
    // Before the UPDATE: the rows' state column is still the state they leave (read above under lock).
    await write(
      trx,
      `insert into transitions (entity_type, entity_id, from_state, to_state, cause, cause_text, source, at) ` +
        `select ?, id, ${spec.column}, ?, ?, ?, ?, ? from ${spec.table} where id in (${list}) order by id`,
      [...log, ...part],
    );
    await write(trx, `update ${spec.table} set ${columns} where id in (${list})`, [...values, ...part]);
  }
}

/**
 * Every payment of one bulk. The payments are counted by state first (under row locks on MariaDB): when
 * they are all in one state that moves (the common case: a bulk's payments travel together), none is
 * read, and the UPDATE and ONE transition row name the bulk (listTransitions gives that row to each
 * payment's history). Otherwise the payments are read: when every one moves, from different states, the
 * INSERT and the UPDATE still select them by bulk; when some stay (a payment already further along),
 * the ones that move are written by id.
 */
async function moveBulkPayments<K extends TransitionKind>(
  trx: Knex.Transaction,
  move: Move<K>,
  bulkId: string,
): Promise<TransitionResult> {
  const { spec, request, log } = move;
  if (request.kind !== 'payment') throw new Error(`a ${spec.machine.name} has no bulk to be moved with`);
  const counts = await readRows(
    trx,
    // a bulk's payments are of its company
    `select ${spec.column}, count(*) as n, min(company) as company from ${spec.table}` +
      ` where bulk_id = ? group by ${spec.column}${lockingRead(trx)}`,
    [bulkId],
  );
  const [only] = counts;
  if (counts.length === 0) return resultOf(noDecisions());
  if (counts.length === 1 && only !== undefined) {
    const from = toStr(only[spec.column]);
    const count = Number(only.n);
    const decision = decide(spec, from, request.to, request.mode ?? 'strict');
    if (decision === 'duplicate' || decision === 'stale') return { ...resultOf(noDecisions()), [decision]: count };
    if (decision === 'apply') {
      countMove(trx, 'payment', toStr(only.company), { from, to: request.to, rows: count });
      countBulkLinesMove(trx, bulkId, toStr(only.company), { from, to: request.to, rows: count });
      await insertBulkLinesRow(trx, move.log, bulkId, from);
      await updateBulkPayments(trx, move, bulkId, count);
      await markLinesChanged(trx, move.request.at, { bulkId });
      return { moved: count, duplicate: 0, stale: 0, refused: [] };
    }
  }
  const decided = noDecisions();
  const rows = await readRows(
    trx,
    `select id, ${spec.column}, company, bulk_id from ${spec.table} where bulk_id = ?${lockingRead(trx)}`,
    [bulkId],
  );
  decideRows(spec, rows, request.to, request.mode ?? 'strict', decided);
  if (decided.moved.length === 0) return resultOf(decided);
  countMoves(trx, move, decided);
  if (decided.moved.length < rows.length) {
    await writeMoves(trx, move, decided.moved);
    await markLinesChanged(trx, move.request.at, { bulkId });
    return resultOf(decided);
  }
  // Not "and state in (…)": without statistics SQLite would walk the state index, every queued payment of every bulk.
  await write(
    trx,
    `insert into transitions (entity_type, entity_id, from_state, to_state, cause, cause_text, source, at) ` +
      `select ?, id, ${spec.column}, ?, ?, ?, ?, ? from ${spec.table} where bulk_id = ? order by id`,
    [...log, bulkId],
  );
  await updateBulkPayments(trx, move, bulkId, decided.moved.length);
  await markLinesChanged(trx, move.request.at, { bulkId });
  return resultOf(decided);
}

/** The UPDATE of every payment of a bulk, which must be the `expected` payments decided on. */
async function updateBulkPayments<K extends TransitionKind>(
  trx: Knex.Transaction,
  { spec, set }: Move<K>,
  bulkId: string,
  expected: number,
): Promise<void> {
  const [columns, values] = assignments(set);
  const updated = await write(trx, `update ${spec.table} set ${columns} where bulk_id = ?`, [...values, bulkId]);
  // The rows are locked (or the whole database, on SQLite): a mismatch means a write outside this function.
  if (updated !== expected)
    throw new Error(`bulk ${bulkId}: ${updated} payments updated where ${expected} were to move`);
}

/**
 * An UPDATE's `column = ?, …` and their values, in the order given; a column set to `undefined` is
 * left out (as knex leaves it out).
 */
function assignments(set: Row): [columns: string, values: unknown[]] {
  const names = Object.keys(set).filter((name) => set[name] !== undefined);
  return [names.map((name) => `${name} = ?`).join(', '), names.map((name) => set[name])];
}

/** The counters of the rows `decided` moved (src/store/state-counts.ts). */
function countMoves<K extends TransitionKind>(
  trx: Knex.Transaction,
  { spec, request }: Move<K>,
  decided: Decisions,
): void {
  const kind = countedKind(spec);
  if (kind === undefined) return;
  for (const [key, rows] of decided.leaving) {
    const [company, from] = key.split('\u0000') as [string, string];
    countMove(trx, kind, company, { from, to: request.to, rows });
  }
  // A bulk's lines per state: in the bulk they are in, or the one the move puts them in.
  const into = request.set?.bulk_id;
  countBulkLineMoves(trx, decided.leavingBulks, request.to, typeof into === 'string' ? into : undefined);
}

/** `, bulk_id` where the rows read are payments: their bulks' counts of lines move with them. */
function bulkColumn(spec: KindSpec): string {
  return spec.entityType === 'payment' ? ', bulk_id' : '';
}

function resultOf(d: Decisions): TransitionResult {
  return { moved: d.moved.length, duplicate: d.duplicate, stale: d.stale, refused: d.refused };
}

/**
 * New rows are inserted in one of their machine's initial states; this checks that state and
 * writes their first transition rows (from nothing).
 */
export async function recordCreation<K extends TransitionKind>(
  trx: Knex.Transaction,
  request: Omit<TransitionRequest<K>, 'ids' | 'mode' | 'set' | 'bankReported'> & {
    ids: readonly string[];
    /** The new rows' company (their counters, src/store/state-counts.ts). */
    company: string;
  },
): Promise<void> {
  const spec = KINDS[request.kind];
  if (!spec.machine.initial.includes(request.to)) {
    throw new SettleError('ERR_STATE_TRANSITION_ILLEGAL', `A ${spec.machine.name} cannot start in "${request.to}".`, {
      details: { machine: spec.machine.name, to: request.to },
    });
  }
  await logTransitions(
    trx,
    request.ids.map((id) => ({
      entityType: spec.entityType,
      entityId: id,
      to: request.to,
      cause: request.cause,
      source: request.source,
      at: request.at,
    })),
  );
  const kind = countedKind(spec);
  if (kind !== undefined) {
    countRows(trx, kind, request.company, request.to, request.ids.length);
    await settleCounts(trx);
  }
}

function notFound(entityType: EntityType, wanted: readonly string[], found: readonly Row[]): SettleError {
  const have = new Set(found.map((r) => toStr(r.id)));
  const missing = wanted.find((id) => !have.has(id)) ?? '?';
  return new SettleError('ERR_DB_NOT_FOUND', `No ${entityType.replace('_', ' ')} with id ${missing}.`, {
    details: { entityType, id: missing },
  });
}
