// Every state change of a payment file, bulk, payment line or basket is written together
// with a row in `transitions` (who moved, from what, to what, why, when), inside the caller's
// transaction. The move itself is checked against the domain state machine first.
import type { Knex } from 'knex';
import { ExitCode, SettleError } from '../domain/errors.js';
import { decideUpdate, transition, type StateMachine, type UpdateDecision } from '../domain/states.js';
import { forUpdate, instant, toStr, type Row } from './rows.js';

export type EntityType = 'payment_file' | 'bulk' | 'payment' | 'basket';

export interface TransitionRecord {
  entityType: EntityType;
  entityId: string;
  from: string | undefined;
  to: string;
  cause: string;
  at: Date;
}

const TABLE: Record<EntityType, string> = {
  payment_file: 'payment_files',
  bulk: 'bulks',
  payment: 'payments',
  basket: 'baskets',
};

export async function logTransitions(
  trx: Knex | Knex.Transaction,
  records: readonly TransitionRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r) => ({
    entity_type: r.entityType,
    entity_id: r.entityId,
    from_state: r.from ?? null,
    to_state: r.to,
    cause: r.cause.slice(0, 300),
    at: instant(r.at),
  }));
  // Chunked: SQLite caps bound parameters per statement.
  for (let i = 0; i < rows.length; i += 100) await trx('transitions').insert(rows.slice(i, i + 100));
}

export interface ChangeState<S extends string> {
  entityType: EntityType;
  id: string;
  machine: StateMachine<S>;
  to: S;
  cause: string;
  at: Date;
  /** Other columns to set in the same update. */
  set?: Row;
  /**
   * 'strict' (default) throws on any move the machine does not allow; 'tolerant' treats a
   * duplicate or out-of-order update as a no-op (status from polling and webhooks).
   */
  mode?: 'strict' | 'tolerant';
}

/** Reads the current state under a row lock, checks the move, writes it and its transition row. */
export async function changeState<S extends string>(
  trx: Knex.Transaction,
  change: ChangeState<S>,
): Promise<UpdateDecision> {
  const table = TABLE[change.entityType];
  const row = await forUpdate(trx, trx<Row>(table).select('state').where({ id: change.id })).first();
  if (!row) {
    throw new SettleError('ERR_DB_NOT_FOUND', `No ${change.entityType.replace('_', ' ')} with id ${change.id}.`, {
      exitCode: ExitCode.runtime,
      details: { entityType: change.entityType, id: change.id },
    });
  }
  const from = toStr(row.state) as S;
  let decision: UpdateDecision;
  if (change.mode === 'tolerant') decision = decideUpdate(change.machine, from, change.to);
  else {
    transition(change.machine, from, change.to);
    decision = 'apply';
  }
  if (decision !== 'apply') return decision;
  await trx(table)
    .where({ id: change.id })
    .update({ ...(change.set ?? {}), state: change.to, updated_at: instant(change.at) });
  await logTransitions(trx, [
    { entityType: change.entityType, entityId: change.id, from, to: change.to, cause: change.cause, at: change.at },
  ]);
  return 'apply';
}

export async function listTransitions(
  knex: Knex,
  entityType: EntityType,
  entityId: string,
): Promise<TransitionRecord[]> {
  const rows = await knex<Row>('transitions').where({ entity_type: entityType, entity_id: entityId }).orderBy('id');
  return rows.map((r) => ({
    entityType,
    entityId,
    from: r.from_state === null ? undefined : toStr(r.from_state),
    to: toStr(r.to_state),
    cause: toStr(r.cause),
    at: new Date(toStr(r.at)),
  }));
}
