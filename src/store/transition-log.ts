// The rows of the transitions table that transitions.ts writes from values (who, from what, to
// what, why, when, through which path): a new row's first move, and the one row that stands for a
// bulk's payments. Each cause is kept twice: its English, cut to the column, and its recorded text
// (migration 0764). The moves that copy a row's current state (INSERT … SELECT) stay beside their
// UPDATE in transitions.ts.
import type { Knex } from 'knex';
import { causeOf, type CauseInput } from '../domain/transition-cause.js';
import { write } from './direct-sql.js';
import { chunks, IDS_PER_STATEMENT, instant } from './rows.js';

/**
 * The entity_type of a transition row that every payment of one bulk shares (entity_id is the
 * bulk's id): written when all of a bulk's payments make the same move together, read as part of
 * each of its payments' histories. A payment never leaves its bulk, so the row is true of every payment
 * the bulk holds.
 */
export const BULK_LINES = 'bulk_lines';

/** Width of transitions.cause. */
const CAUSE_LENGTH = 300;

/** The cause's English (cut to the column's width) and its recorded text as JSON, or null. */
export function causeColumns(input: CauseInput): [string, string | null] {
  const { english, said } = causeOf(input);
  return [english.slice(0, CAUSE_LENGTH), said === undefined ? null : JSON.stringify(said)];
}

/**
 * The one transition row that stands for every payment of a bulk making the same move
 * (BULK_LINES). `log` is the move's constants: entity type, to, cause, cause text, source, at.
 */
export async function insertBulkLinesRow(
  trx: Knex.Transaction,
  log: readonly (string | null)[],
  bulkId: string,
  from: string,
): Promise<void> {
  const [, to, cause, causeText, source, at] = log;
  await write(
    trx,
    'insert into transitions (entity_type, entity_id, from_state, to_state, cause, cause_text, source, at) values (?, ?, ?, ?, ?, ?, ?, ?)',
    [BULK_LINES, bulkId, from, to, cause, causeText, source, at],
  );
}

/** New rows' first moves (from nothing): one multi-row INSERT per 4,000 rows (SQLite's VALUES lists are not capped like UNION ALL). */
export async function logTransitions(
  trx: Knex.Transaction,
  records: readonly {
    entityType: string;
    entityId: string;
    to: string;
    cause: CauseInput;
    source: string;
    at: Date;
  }[],
): Promise<void> {
  for (const part of chunks(records, IDS_PER_STATEMENT)) {
    const bindings = part.flatMap((r) => [
      r.entityType,
      r.entityId,
      null,
      r.to,
      ...causeColumns(r.cause),
      r.source,
      instant(r.at),
    ]);
    await write(
      trx,
      `insert into transitions (entity_type, entity_id, from_state, to_state, cause, cause_text, source, at) values ${part
        .map(() => '(?, ?, ?, ?, ?, ?, ?, ?)')
        .join(', ')}`,
      bindings,
    );
  }
}
