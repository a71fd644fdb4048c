// An entity's history as the transition function (src/store/transitions.ts) recorded it: its own
// transition rows, and for a payment the rows its whole bulk's payments share (BULK_LINES).
import type { Knex } from 'knex';
import { toOptRecordedText, toOptStr, toStr, type Row } from './rows.js';
import { BULK_LINES, type EntityType, type TransitionRecord, type TransitionSource } from './transitions.js';

/** An entity's history, oldest first; a payment's includes the moves it made with its whole bulk. */
export async function listTransitions(
  knex: Knex,
  entityType: EntityType,
  entityId: string,
): Promise<TransitionRecord[]> {
  const rows = await knex<Row>('transitions').where({ entity_type: entityType, entity_id: entityId }).orderBy('id');
  if (entityType === 'payment') {
    const line = await knex<Row>('payments').select('bulk_id').where({ id: entityId }).first();
    const bulkId = toOptStr(line?.bulk_id);
    if (bulkId !== undefined) {
      rows.push(...(await knex<Row>('transitions').where({ entity_type: BULK_LINES, entity_id: bulkId })));
      rows.sort((a, b) => Number(a.id) - Number(b.id));
    }
  }
  return rows.map((r) => {
    const source = toOptStr(r.source) as TransitionSource | undefined;
    const said = toOptRecordedText(r.cause_text);
    return {
      entityType,
      entityId,
      from: r.from_state === null ? undefined : toStr(r.from_state),
      to: toStr(r.to_state),
      cause: toStr(r.cause),
      ...(said === undefined ? {} : { said }),
      ...(source === undefined ? {} : { source }),
      at: new Date(toStr(r.at)),
    };
  });
}
