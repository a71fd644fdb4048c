// Which rows of one transition move (src/store/transitions.ts): the domain state machine decides
// each row from its current state, and the decisions are tallied: the rows that move, by company
// and by bulk (their counters), and those that do not, and why. Pure: no statement is sent here.
import { SettleError } from '../domain/errors.js';
import {
  decideUpdate,
  transition as checkTransition,
  type StateMachine,
  type UpdateDecision,
} from '../domain/states.js';
import { toOptStr, toStr, type Row } from './rows.js';

/** What decides a kind's moves: the column its state is in, and its machine. */
export interface Deciding {
  column: 'state' | 'bank_status';
  machine: StateMachine<string>;
}

/** Each row's decision, by id: what moves, and what does not and why. */
export interface Decisions {
  moved: string[];
  /** The moved rows by company and the state they leave: `company\u0000state` → rows. */
  leaving: Map<string, number>;
  /** Moved payments by their bulk (`` for none), company and the state they leave: `bulk\u0000company\u0000state` → rows. */
  leavingBulks: Map<string, number>;
  duplicate: number;
  stale: number;
  refused: string[];
}

export function noDecisions(): Decisions {
  return { moved: [], leaving: new Map(), leavingBulks: new Map(), duplicate: 0, stale: 0, refused: [] };
}

/** The machine's decision for each row, tallied into `result`. */
export function decideRows(
  spec: Deciding,
  rows: readonly Row[],
  to: string,
  mode: 'strict' | 'tolerant',
  result: Decisions,
): void {
  // A bulk's payments mostly share one state: the machine is asked once per distinct state, not once
  // per row (an illegal move still throws at the first row that has it).
  const decided = new Map<string | undefined, UpdateDecision | 'refused'>();
  for (const row of rows) {
    const id = toStr(row.id);
    const from = toOptStr(row[spec.column]);
    let decision = decided.get(from);
    if (decision === undefined) {
      decision = decide(spec, from, to, mode);
      decided.set(from, decision);
    }
    if (decision === 'apply') {
      result.moved.push(id);
      const key = `${toStr(row.company)}\u0000${from ?? ''}`;
      result.leaving.set(key, (result.leaving.get(key) ?? 0) + 1);
      if ('bulk_id' in row) {
        const inBulk = `${toOptStr(row.bulk_id) ?? ''}\u0000${key}`;
        result.leavingBulks.set(inBulk, (result.leavingBulks.get(inBulk) ?? 0) + 1);
      }
    } else if (decision === 'refused') result.refused.push(id);
    else result[decision]++;
  }
}

/** Whether one row moves from `from` to `to`: strict throws on an illegal move, tolerant tallies it. */
export function decide(
  spec: Deciding,
  from: string | undefined,
  to: string,
  mode: 'strict' | 'tolerant',
): UpdateDecision | 'refused' {
  // A bulk's bank status starts empty: the first status the bank gives is taken as it is.
  if (from === undefined && spec.column === 'bank_status') return 'apply';
  const current = from ?? '';
  if (mode === 'strict') {
    checkTransition(spec.machine, current, to);
    return 'apply';
  }
  try {
    return decideUpdate(spec.machine, current, to);
  } catch (error) {
    if (error instanceof SettleError && error.code === 'ERR_STATE_TRANSITION_ILLEGAL') return 'refused';
    throw error;
  }
}
