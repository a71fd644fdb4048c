// The one store function that applies a plan (src/domain/plans): every step in one transaction,
// every move through transition(). It decides nothing: which rows move, to what, and what is
// written beside them is the plan's. It only refuses a plan whose rows are no longer as the
// use case read them (optimistic concurrency: a row moved, a request closed, a hold decided
// meanwhile), and then the transaction rolls back and nothing of the plan is written.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type {
  AppliedPlan,
  ExpectOpenCancellation,
  ExpectUndecidedHold,
  Plan,
  PlannedMove,
  PlannedRequeue,
  PlanStep,
} from '../domain/plans/plan.js';
import type { Database } from './database.js';
import { lockingRead, placeholders, readRows } from './direct-sql.js';
import { newId } from './ids.js';
import { insertNewBulk } from './new-bulk.js';
import {
  chunks,
  forUpdate,
  IDS_PER_STATEMENT,
  instant,
  toBigInt,
  toBool,
  toInt,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';
import { recordCreation, transition } from './transitions.js';

/** Where each kind's state is kept (as transition() keeps it). */
const STATE_COLUMN: Record<PlannedMove['kind'], { table: string; column: string }> = {
  payment_file: { table: 'payment_files', column: 'state' },
  bulk: { table: 'bulks', column: 'state' },
  bank_status: { table: 'bulks', column: 'bank_status' },
  payment: { table: 'payments', column: 'state' },
  basket: { table: 'baskets', column: 'state' },
};

/** Applies `plan` in one transaction; see the file comment. */
export async function applyPlan(db: Database, clock: Clock, plan: Plan): Promise<AppliedPlan> {
  const at = clock.now();
  return db.transaction(async (trx) => {
    const applied: AppliedPlan = { applied: true };
    for (const step of plan.steps) {
      if (!(await applyStep(trx, clock, at, step, applied))) return { applied: false };
    }
    return applied;
  });
}

/** False when the plan was applied already (an open request found closed, `whenClosed: 'done'`). */
async function applyStep(
  trx: Knex.Transaction,
  clock: Clock,
  at: Date,
  step: PlanStep,
  applied: AppliedPlan,
): Promise<boolean> {
  switch (step.step) {
    case 'move':
      await move(trx, at, step);
      return true;
    case 'requeue':
      applied.requeuedBulkId = await requeue(trx, clock, at, step);
      return true;
    case 'expect-open-cancellation':
      return expectOpenCancellation(trx, step);
    case 'close-cancellation':
      await trx('cancellations')
        .where({ id: step.id })
        .update({
          outcome: step.outcome,
          outcome_at: instant(at),
          resent_bulk_id: (step.resent ? applied.requeuedBulkId : undefined) ?? null,
        });
      return true;
    case 'expect-undecided-hold':
      await expectUndecidedHold(trx, step);
      return true;
    case 'first-release':
      await trx('held_payments')
        .where({ id: step.id })
        .update({
          first_released_by: step.by,
          first_released_person: step.person,
          first_released_at: instant(at),
          first_release_reason: step.reason,
        });
      return true;
    case 'decide-hold':
      await trx('held_payments')
        .where({ id: step.id })
        .update({
          decision: step.decision,
          decided_by: step.by,
          decided_at: instant(at),
          decision_reason: step.reason,
          awaiting_bulk: step.decision === 'released',
        });
      return true;
  }
}

async function move(trx: Knex.Transaction, at: Date, step: PlannedMove): Promise<void> {
  let ids = step.ids;
  if (step.from !== undefined && Array.isArray(ids)) ids = await stillFrom(trx, step, ids);
  if (Array.isArray(ids) && ids.length === 0) return;
  await transition(trx, {
    kind: step.kind,
    ids,
    to: step.to,
    cause: step.cause,
    source: step.source,
    at,
    ...(step.mode ? { mode: step.mode } : {}),
    ...(step.bankReported ? { bankReported: true } : {}),
    ...(step.messages ? { set: { tpp_messages: JSON.stringify(step.messages) } } : {}),
    ...(step.sentAs
      ? {
          set: {
            bank_payment_id: step.sentAs.bankPaymentId,
            last_problem: null,
            bank_id: step.sentAs.bankId ?? null,
            consent_id: step.sentAs.consentId ?? null,
          },
        }
      : {}),
  });
}

/**
 * The rows of `ids` still in one of the states the plan read them in, under row locks on
 * MariaDB: all of them, or (`otherwise: 'leave'`) those that are; a row that moved meanwhile
 * refuses the plan otherwise.
 */
async function stillFrom(
  trx: Knex.Transaction,
  step: Pick<PlannedMove, 'kind' | 'from' | 'otherwise'>,
  ids: readonly string[],
): Promise<string[]> {
  const { table, column } = STATE_COLUMN[step.kind];
  const from = new Set<string>(step.from);
  const state = new Map<string, string | undefined>();
  for (const part of chunks([...new Set(ids)], IDS_PER_STATEMENT))
    for (const r of await readRows(
      trx,
      `select id, ${column} from ${table} where id in (${placeholders(part.length)})${lockingRead(trx)}`,
      part,
    ))
      state.set(toStr(r.id), toOptStr(r[column]));
  const kept = ids.filter((id) => from.has(state.get(id) ?? ''));
  if (kept.length === ids.length || step.otherwise === 'leave') return kept;
  const moved = ids.find((id) => !from.has(state.get(id) ?? ''))!;
  throw new SettleError(
    'ERR_STATE_TRANSITION_ILLEGAL',
    `${step.kind} ${moved} is ${state.get(moved) ?? 'gone'} now, not ${[...from].join(' or ')} as it was read; nothing was changed`,
    { details: { kind: step.kind, id: moved } },
  );
}

/**
 * A new bulk of the same file as `like` for the step's lines, placed after the file's existing
 * bulks: a new position gives a new idempotency key (the old key's answer at the bank is the
 * cancelled bulk). Its totals are the lines' amounts per currency.
 */
async function requeue(trx: Knex.Transaction, clock: Clock, at: Date, step: PlannedRequeue): Promise<string> {
  const paymentIds =
    step.from === undefined
      ? step.paymentIds
      : await stillFrom(trx, { kind: 'payment', from: step.from }, step.paymentIds);
  const old = await forUpdate(trx, trx<Row>('bulks').where({ id: step.like })).first();
  if (!old) throw new SettleError('ERR_DB_NOT_FOUND', `No bulk with id ${step.like}.`);
  const fileId = toStr(old.file_id);
  const file = await trx<Row>('payment_files').select('sha256').where({ id: fileId }).first();
  const max = await trx<Row>('bulks').max({ m: 'position' }).where({ file_id: fileId }).first();
  const totals = new Map<string, bigint>();
  for (const part of chunks(paymentIds, IDS_PER_STATEMENT))
    for (const l of await trx<Row>('payments').select('currency', 'amount_minor').whereIn('id', part))
      totals.set(toStr(l.currency), (totals.get(toStr(l.currency)) ?? 0n) + toBigInt(l.amount_minor));
  const id = newId(clock);
  await insertNewBulk(
    trx,
    {
      id,
      file_id: fileId,
      position: toInt(max?.m ?? 0) + 1,
      company: toStr(old.company),
      debtor_iban: toStr(old.debtor_iban),
      execution_date: toStr(old.execution_date),
      batch_booking: toBool(old.batch_booking),
      state: 'pending',
      line_count: paymentIds.length,
      totals_json: JSON.stringify(Object.fromEntries([...totals].map(([c, v]) => [c, v.toString()]))),
      attempts: 0,
      created_at: instant(at),
      updated_at: instant(at),
    },
    toStr(file!.sha256),
  );
  const { cause, source } = step;
  await recordCreation(trx, { kind: 'bulk', ids: [id], company: toStr(old.company), to: 'pending', cause, source, at });
  await transition(trx, { kind: 'payment', ids: paymentIds, to: 'queued', cause, source, at, set: { bulk_id: id } });
  return id;
}

async function expectOpenCancellation(trx: Knex.Transaction, step: ExpectOpenCancellation): Promise<boolean> {
  const row = await forUpdate(trx, trx<Row>('cancellations').select('outcome').where({ id: step.id })).first();
  if (!row)
    throw new SettleError(
      'ERR_CANCEL_NOT_FOUND',
      `No cancellation request ${step.id}; see settle payments cancel --help`,
    );
  const outcome = toOptStr(row.outcome);
  if (outcome === undefined) return true;
  if (step.whenClosed === 'done') return false;
  throw new SettleError('ERR_CANCEL_REFUSED', `cancellation ${step.id} was already ${outcome}`);
}

async function expectUndecidedHold(trx: Knex.Transaction, step: ExpectUndecidedHold): Promise<void> {
  const held = await forUpdate(trx, trx<Row>('held_payments').where({ id: step.id })).first();
  if (!held) throw notHeld(step.id, 'is not a held payment', { why: 'notHeld' });
  if (toOptStr(held.decision) !== undefined)
    throw notHeld(step.id, `was already ${toStr(held.decision)} by ${toStr(held.decided_by)}`, {
      why: 'decided',
      decision: toStr(held.decision),
      by: toStr(held.decided_by),
    });
  const first = toOptStr(held.first_released_person);
  if (first !== step.firstReleasedPerson)
    throw notHeld(
      step.id,
      `was released once by ${toOptStr(held.first_released_by) ?? 'a person'} meanwhile; decide again`,
      { why: 'released', by: toOptStr(held.first_released_by) ?? 'a person' },
    );
}

function notHeld(id: string, why: string, values: Record<string, string>): SettleError {
  return new SettleError('ERR_PAYMENT_NOT_HELD', `${id} ${why}; see settle payments held`, {
    values: { id, ...values },
  });
}
