// Who approved a signing basket and when, as settle knows it: when the bank reported it approved,
// and to whom the console showed its link (the audit trail's approval.link_shown entries). Two
// bounded reads for one basket.
import type { Knex } from 'knex';
import { toStr, type Row } from './rows.js';

export interface BasketHistory {
  /** When the bank reported it approved (authorised). */
  approvedAt?: Date;
  /** The people the console showed its link to, in order; the last 20 at most. */
  linkShown: { actor: string; at: Date }[];
}

export async function basketHistory(knex: Knex, id: string): Promise<BasketHistory> {
  const [moves, shown] = await Promise.all([
    knex<Row>('transitions')
      .select('at')
      .where({ entity_type: 'basket', entity_id: id })
      .where({ to_state: 'authorised' })
      .orderBy('id', 'desc')
      .limit(1),
    knex<Row>('audit_trail')
      .select('actor', 'at')
      .where({ subject_type: 'basket', subject_id: id, action: 'approval.link_shown' })
      .orderBy('seq', 'desc')
      .limit(20),
  ]);
  const approvedAt = moves[0] ? new Date(toStr(moves[0].at)) : undefined;
  return {
    ...(approvedAt ? { approvedAt } : {}),
    linkShown: shown.reverse().map((r) => ({ actor: toStr(r.actor), at: new Date(toStr(r.at)) })),
  };
}
