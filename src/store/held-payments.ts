// Lines held as likely duplicates (src/domain/likely-duplicate.ts) of a payment accepted from
// another file, or of an earlier line of the same file, or by a payment control
// (src/domain/controls: changed or new creditor account, limits, unusual time; docs/controls.md),
// each hold with the rule ids and the evidence. Which lines are held is decided by the domain's
// rule (src/domain/controls/pickup-holds.ts) that pickup hands the file ledger, which stores them
// held in the same transaction as the file (`heldRows`); a person releases a line (it goes back to accepted and the
// next submit sends it) or drops it (CANC: never sent, reported to the ERP as cancelled): what
// that moves is planned in src/domain/plans/hold-plan.ts from `get`'s read and applied by the
// store's applyPlan, which keeps the decision on the held row: who, when and why.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { DUPLICATE_RULE, type HoldInput } from '../domain/hold.js';
import { isRecordedText, type RecordedText } from '../domain/recorded-text.js';
import type { Database } from './database.js';
import { toStoredPayment, type StoredPayment } from './payments.js';
import {
  chunks,
  IDS_PER_STATEMENT,
  instant,
  throughIndex,
  toDate,
  toInt,
  toOptDate,
  toOptRecordedText,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';

/** The index of the holds released and still waiting for a bulk (migration 0560). */
const AWAITING_INDEX = 'held_payments_awaiting_bulk_ix';

export type { HoldInput };

export type HoldDecision = 'released' | 'dropped';

/** A line a person released from a hold: the rules that held it and who released it, in order. */
export interface ReleasedHold {
  rules: string[];
  releasedBy: string[];
}

export interface HeldPayment {
  id: string;
  company: string;
  paymentId: string;
  fileId: string;
  fileName: string;
  lineNumber: number;
  endToEndId: string;
  matchedPaymentId: string;
  reason: string;
  /**
   * `reason` as recorded text, for a reader of another language: the words the hold recorded in
   * its line's messages (the row keeps English only); absent for older holds, and once a decision
   * has replaced the line's messages.
   */
  reasonText?: RecordedText;
  /** The rules that held it: 'duplicate' and/or the controls' ids (docs/controls.md). */
  rules: string[];
  /** What each control rule saw, in words ("… was paid to NO93… 14 times since 2025-03; …"). */
  evidence?: string;
  /** `evidence` as recorded text (migration 0762), for a reader of another language; absent on older holds. */
  evidenceText?: RecordedText;
  /**
   * Releases by different people the hold needs (2 for a changed account or a limit): the first
   * is kept in `firstRelease` and sends nothing; a different person's release decides the hold.
   */
  releasesNeeded: 1 | 2;
  firstRelease?: { by: string; person: string; at: Date; reason: string };
  heldAt: Date;
  decision?: HoldDecision;
  decidedBy?: string;
  decidedAt?: Date;
  decisionReason?: string;
}

export class HeldPaymentRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Held lines, oldest first; only those waiting for a person unless `all`. */
  async list(filter: { company?: string; all?: boolean } = {}): Promise<HeldPayment[]> {
    const q = this.query().orderBy('h.held_at').orderBy('p.line_number');
    if (filter.company !== undefined) void q.where('h.company', filter.company);
    if (!filter.all) void q.whereNull('h.decision');
    return (await q).map(toHeld);
  }

  /** The held lines a person means by `ref`: a held id, a payment (line) id or an end-to-end id. */
  async find(ref: string, company?: string): Promise<HeldPayment[]> {
    const q = this.query().where(
      (w) => void w.where('h.id', ref).orWhere('h.payment_id', ref).orWhere('p.end_to_end_id', ref),
    );
    if (company !== undefined) void q.where('h.company', company);
    return (await q).map(toHeld);
  }

  /** One held line by its held id (a person's decision on it is planned from this read). */
  async get(id: string): Promise<HeldPayment | undefined> {
    const row = (await this.query().where('h.id', id).first()) as Row | undefined;
    return row ? toHeld(row) : undefined;
  }

  /** See `releasedHolds`. */
  releasedAmong(company: string, paymentIds: readonly string[]): Promise<Map<string, ReleasedHold>> {
    return releasedHolds(this.db.knex, company, paymentIds);
  }

  /**
   * Released lines not yet in a bulk, by file: what the next submit sends. Read through the holds
   * still marked as waiting for a bulk, not every hold the company ever released; a hold whose
   * line this read finds in a bulk (or no longer accepted: cancelled, say) stops waiting here, so
   * a released line is read on the night it is planned and once after, never again. Lines never
   * leave a bulk, so a hold that stopped waiting has nothing more to wait for.
   */
  async releasedUnplanned(company: string): Promise<StoredPayment[]> {
    const rows = (await this.db.knex
      .from<Row>(throughIndex(this.db.knex, 'held_payments', AWAITING_INDEX, 'h'))
      .join('payments as p', 'p.id', 'h.payment_id')
      .select('p.*', 'h.id as held_id')
      .where({ 'h.company': company, 'h.awaiting_bulk': true })
      .orderBy('p.file_id')
      .orderBy('p.line_number')) as Row[];
    const waiting: Row[] = [];
    const done: string[] = [];
    for (const r of rows)
      if (toStr(r.state) === 'accepted' && r.bulk_id === null) waiting.push(r);
      else done.push(toStr(r.held_id));
    for (const part of chunks(done, IDS_PER_STATEMENT))
      await this.db.knex('held_payments').whereIn('id', part).update({ awaiting_bulk: false });
    return waiting.map(toStoredPayment);
  }

  private query() {
    return selectHeld(this.db.knex);
  }
}

/** Held rows with their line's file, line number and end-to-end id, as `toHeld` reads them. */
export function selectHeld(knex: Knex) {
  return knex<Row>('held_payments as h')
    .join('payments as p', 'p.id', 'h.payment_id')
    .join('payment_files as f', 'f.id', 'p.file_id')
    .select('h.*', 'p.file_id', 'p.line_number', 'p.end_to_end_id', 'p.tpp_messages', 'f.file_name');
}

/**
 * Which of `paymentIds` a person released from a hold, with the rules that held each and who
 * released it (the first of two releases, then the deciding one): what an approver is shown
 * beside the line. One read a chunk of ids, never one a line.
 */
export async function releasedHolds(
  knex: Knex,
  company: string,
  paymentIds: readonly string[],
): Promise<Map<string, ReleasedHold>> {
  const released = new Map<string, ReleasedHold>();
  for (const part of chunks([...new Set(paymentIds)], IDS_PER_STATEMENT)) {
    const rows = (await knex<Row>('held_payments')
      .select('payment_id', 'rules', 'first_released_by', 'decided_by')
      .where({ company, decision: 'released' })
      .whereIn('payment_id', part)) as Row[];
    for (const r of rows)
      released.set(toStr(r.payment_id), {
        rules: toStr(r.rules ?? DUPLICATE_RULE).split(','),
        releasedBy: [toOptStr(r.first_released_by), toOptStr(r.decided_by) ?? 'a person'].filter(
          (by): by is string => by !== undefined,
        ),
      });
  }
  return released;
}

/** The held_payments rows and line states for `holds` (the file ledger inserts them with the file). */
export function heldRows(
  holds: readonly HoldInput[],
  paymentIds: ReadonlyMap<string, string>,
  company: string,
  newId: () => string,
  at: Date,
): Row[] {
  return holds.map((h) => ({
    id: newId(),
    payment_id: paymentIds.get(h.endToEndId),
    company,
    matched_payment_id: h.matchedPaymentId,
    reason: h.reason.slice(0, 500),
    rules: (h.rules ?? [DUPLICATE_RULE]).join(','),
    evidence: h.evidence?.slice(0, 1000) ?? null,
    // Kept only beside the whole English: a cut English has no recorded text that says the same.
    evidence_text: h.evidenceText && (h.evidence?.length ?? 0) <= 1000 ? JSON.stringify(h.evidenceText) : null,
    releases_needed: h.releases ?? 1,
    held_at: instant(at),
  }));
}

export function toHeld(r: Row): HeldPayment {
  const decision = toOptStr(r.decision) as HoldDecision | undefined;
  const decidedBy = toOptStr(r.decided_by);
  const decidedAt = toOptDate(r.decided_at);
  const decisionReason = toOptStr(r.decision_reason);
  const evidence = toOptStr(r.evidence);
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    paymentId: toStr(r.payment_id),
    fileId: toStr(r.file_id),
    fileName: toStr(r.file_name),
    lineNumber: toInt(r.line_number),
    endToEndId: toStr(r.end_to_end_id),
    matchedPaymentId: toStr(r.matched_payment_id),
    reason: toStr(r.reason),
    ...reasonTextOf(toStr(r.reason), r.tpp_messages),
    rules: toStr(r.rules ?? DUPLICATE_RULE).split(','),
    ...(evidence ? { evidence } : {}),
    ...evidenceTextOf(evidence ? r.evidence_text : undefined),
    releasesNeeded: toInt(r.releases_needed ?? 1) >= 2 ? 2 : 1,
    heldAt: toDate(r.held_at),
    ...(decision ? { decision } : {}),
    ...(decidedBy ? { decidedBy } : {}),
    ...(decidedAt ? { decidedAt } : {}),
    ...(decisionReason ? { decisionReason } : {}),
    ...firstReleaseOf(r),
  };
}

/** The hold's evidence as recorded text, when the row has it (migration 0762). */
function evidenceTextOf(value: unknown): Pick<HeldPayment, 'evidenceText'> {
  const evidenceText = toOptRecordedText(value);
  return evidenceText === undefined ? {} : { evidenceText };
}

/** The recorded text of the line's hold message whose English is the row's reason (cut as the row cuts it). */
function reasonTextOf(reason: string, messages: unknown): Pick<HeldPayment, 'reasonText'> {
  if (typeof messages !== 'string' || messages === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(messages);
  } catch {
    return {};
  }
  if (!Array.isArray(parsed)) return {};
  for (const m of parsed as { message?: unknown; key?: unknown; values?: unknown }[]) {
    const words = { key: m.key, values: m.values };
    if (typeof m.message === 'string' && m.message.slice(0, 500) === reason && isRecordedText(words))
      return { reasonText: words.values === undefined ? { key: words.key } : words };
  }
  return {};
}

function firstReleaseOf(r: Row): Pick<HeldPayment, 'firstRelease'> {
  const by = toOptStr(r.first_released_by);
  const at = toOptDate(r.first_released_at);
  if (by === undefined || at === undefined) return {};
  return {
    firstRelease: {
      by,
      person: toOptStr(r.first_released_person) ?? by,
      at,
      reason: toOptStr(r.first_release_reason) ?? '',
    },
  };
}
