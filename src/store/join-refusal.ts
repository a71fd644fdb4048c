// Why a bulk plan's payments could not all join their bulk (src/store/transitions.ts,
// moveJoiningPayments): the join is one conditional UPDATE that reads nothing first, and when fewer
// payments changed than the plan names, this reads them to say which payment and why. Read only then,
// never on the way of a join that succeeds.
import type { Knex } from 'knex';
import type { LineSpan } from '../domain/plans/plan.js';
import { SettleError } from '../domain/errors.js';
import type { PaymentState } from '../domain/states.js';
import { chunks, IDS_PER_STATEMENT, toStr, type Row } from './rows.js';

/** The state a payment joins a bulk from: accepted, and in no bulk yet. */
export const JOINING_STATE: PaymentState = 'accepted';

/** Why a plan's payments could not all join (read only when they could not): the first payment that could not. */
export async function cannotJoin(
  trx: Knex.Transaction,
  ids: readonly string[],
  fileId: string,
  span: LineSpan | undefined,
): Promise<SettleError> {
  const found = new Map<string, Row>();
  for (const part of chunks(ids, IDS_PER_STATEMENT))
    for (const r of await trx<Row>('payments')
      .select('id', 'state', 'file_id', 'bulk_id', 'line_number')
      .whereIn('id', part))
      found.set(toStr(r.id), r);
  const invalid = (message: string) => new SettleError('ERR_DB_BULK_PLAN_INVALID', message);
  for (const id of ids) {
    const line = found.get(id);
    if (line === undefined) return invalid(`A bulk plan of file ${fileId} names unknown payments.`);
    if (toStr(line.file_id) !== fileId) return invalid(`Payment ${id} is not in file ${fileId}.`);
    const n = Number(line.line_number);
    if (span && (n < span.first || n > span.last))
      return invalid(`Payment ${id} (line ${n}) is outside its bulk plan's lines ${span.first}–${span.last}.`);
  }
  const taken = [...found.values()].find((l) => toStr(l.state) !== JOINING_STATE || l.bulk_id !== null);
  return invalid(`Payment ${toStr(taken?.id ?? '?')} is already in a bulk (state ${toStr(taken?.state ?? '?')}).`);
}
