// Bulks are the outbox (architecture §2.2–2.3): each bulk request is stored with its
// deterministic Idempotency-Key and committed before the first POST; every send attempt,
// answer and non-answer is a state change with a transition row. An unanswered send becomes
// `unknown`, which is resolved by a lookup, never by sending again blind.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import {
  bankStatusMachine,
  bulkMachine,
  canonicalBankStatus,
  canTransition,
  decideUpdate,
  lineMachine,
  type BankStatus,
  type BulkState,
  type LineState,
  type UpdateDecision,
} from '../domain/states.js';
import { ExitCode, SettleError } from '../domain/errors.js';
import type { Database } from './database.js';
import { bulkIdempotencyKey, newId } from './ids.js';
import {
  chunks,
  forUpdate,
  instant,
  toBigInt,
  toBool,
  toInt,
  toJson,
  toLocalDate,
  toOptDate,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';
import { changeState, logTransitions, type TransitionRecord } from './state-log.js';

export interface BulkPlan {
  /** 0-based position of the bulk within its file; with the file hash it fixes the idempotency key. */
  position: number;
  debtorIban: string;
  executionDate: LocalDate;
  batchBooking: boolean;
  paymentIds: readonly string[];
}

export interface StoredBulk {
  id: string;
  fileId: string;
  position: number;
  company: string;
  debtorIban: string;
  executionDate: LocalDate;
  batchBooking: boolean;
  idempotencyKey: string;
  state: BulkState;
  bankPaymentId?: string;
  bankStatus?: BankStatus;
  lineCount: number;
  totals: Record<string, string>;
  attempts: number;
  firstSentAt?: Date;
  lastAttemptAt?: Date;
  lastProblem?: unknown;
}

export class BulkOutbox {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates the bulks of a file and queues their lines, in one transaction. Idempotent: a
   * plan whose bulk already exists (same file and position) is returned as stored.
   */
  async createBulks(fileId: string, plans: readonly BulkPlan[], cause = 'submit'): Promise<StoredBulk[]> {
    const now = this.clock.now();
    await this.db.transaction(async (trx) => {
      const file = await forUpdate(
        trx,
        trx<Row>('payment_files').select('sha256', 'company').where({ id: fileId }),
      ).first();
      if (!file) throw notFound('payment file', fileId);
      const existing = new Set(
        (await trx<Row>('bulks').select('position').where({ file_id: fileId })).map((r) => toInt(r.position)),
      );
      for (const plan of plans) {
        if (existing.has(plan.position)) continue;
        const id = newId(this.clock);
        const lines = await selectLines(trx, plan.paymentIds);
        const totals = new Map<string, bigint>();
        for (const l of lines) {
          if (toStr(l.file_id) !== fileId)
            throw new SettleError('ERR_DB_BULK_PLAN_INVALID', `Payment ${toStr(l.id)} is not in file ${fileId}.`, {
              exitCode: ExitCode.runtime,
            });
          // A line in two bulks would be paid twice: only unqueued lines may join a bulk.
          if (toStr(l.state) !== 'accepted' || toOptStr(l.bulk_id) !== undefined) {
            throw new SettleError(
              'ERR_DB_BULK_PLAN_INVALID',
              `Payment ${toStr(l.id)} is already in a bulk (state ${toStr(l.state)}).`,
              { exitCode: ExitCode.runtime },
            );
          }
          const c = toStr(l.currency);
          totals.set(c, (totals.get(c) ?? 0n) + toBigInt(l.amount_minor));
        }
        if (lines.length !== plan.paymentIds.length)
          throw new SettleError('ERR_DB_BULK_PLAN_INVALID', `A bulk plan of file ${fileId} names unknown payments.`, {
            exitCode: ExitCode.runtime,
          });
        await trx('bulks').insert({
          id,
          file_id: fileId,
          position: plan.position,
          company: toStr(file.company),
          debtor_iban: plan.debtorIban,
          execution_date: plan.executionDate,
          batch_booking: plan.batchBooking,
          idempotency_key: bulkIdempotencyKey(toStr(file.sha256), plan.position),
          state: 'pending',
          line_count: lines.length,
          totals_json: JSON.stringify(Object.fromEntries([...totals].map(([c, v]) => [c, v.toString()]))),
          attempts: 0,
          created_at: instant(now),
          updated_at: instant(now),
        });
        await logTransitions(trx, [
          { entityType: 'bulk', entityId: id, from: undefined, to: 'pending', cause, at: now },
        ]);
        await moveLines(trx, lines, 'queued', cause, now, { bulk_id: id });
      }
    });
    return this.listByFile(fileId);
  }

  /** The bulk the bank knows by this payment id (webhook events and status lines name it). */
  async idByBankPaymentId(bankPaymentId: string): Promise<string | undefined> {
    const row = await this.db.knex<Row>('bulks').select('id').where({ bank_payment_id: bankPaymentId }).first();
    return row ? toStr(row.id) : undefined;
  }

  async get(id: string): Promise<StoredBulk | undefined> {
    const row = await this.db.knex<Row>('bulks').where({ id }).first();
    return row ? toStoredBulk(row) : undefined;
  }

  async listByFile(fileId: string): Promise<StoredBulk[]> {
    return (await this.db.knex<Row>('bulks').where({ file_id: fileId }).orderBy('position')).map(toStoredBulk);
  }

  async listByState(state: BulkState): Promise<StoredBulk[]> {
    return (await this.db.knex<Row>('bulks').where({ state }).orderBy('id')).map(toStoredBulk);
  }

  /** Before each POST: counts the attempt; pending → sending (a retry of a sending bulk stays sending). */
  async markSending(id: string, cause = 'send'): Promise<StoredBulk> {
    const at = this.clock.now();
    await this.db.transaction(async (trx) => {
      const row = await lockBulk(trx, id);
      const counters: Row = {
        attempts: toInt(row.attempts) + 1,
        last_attempt_at: instant(at),
        first_sent_at: row.first_sent_at ?? instant(at),
      };
      if (toStr(row.state) === 'sending')
        await trx('bulks')
          .where({ id })
          .update({ ...counters, updated_at: instant(at) });
      else
        await changeState(trx, {
          entityType: 'bulk',
          id,
          machine: bulkMachine,
          to: 'sending',
          cause,
          at,
          set: counters,
        });
    });
    return (await this.get(id))!;
  }

  /** The bank took the bulk (201, or 200 with Idempotent-Replayed). */
  async markSent(id: string, bankPaymentId: string, cause = 'bank accepted', bankStatus?: string): Promise<void> {
    const at = this.clock.now();
    const status = bankStatus === undefined ? undefined : canonicalBankStatus(bankStatus);
    await this.db.transaction(async (trx) => {
      const row = await lockBulk(trx, id);
      // A repeated answer for the same bank payment (e.g. an idempotent replay) changes nothing.
      const repeat = toStr(row.state) === 'sent' && toOptStr(row.bank_payment_id) === bankPaymentId;
      if (!repeat) {
        await changeState(trx, {
          entityType: 'bulk',
          id,
          machine: bulkMachine,
          to: 'sent',
          cause,
          at,
          set: { bank_payment_id: bankPaymentId, last_problem: null },
        });
      }
      await moveLines(trx, await selectLinesOfBulk(trx, id), 'sent', cause, at);
      if (status !== undefined) await applyBulkStatus(trx, id, status, cause, at);
    });
  }

  /** The bank refused the bulk (a final 4xx): the bulk and its lines are rejected. */
  async markRejected(id: string, problem: unknown, cause = 'bank rejected'): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction(async (trx) => {
      await changeState(trx, {
        entityType: 'bulk',
        id,
        machine: bulkMachine,
        to: 'rejected',
        cause,
        at,
        set: { last_problem: JSON.stringify(problem) },
      });
      await moveLines(trx, await selectLinesOfBulk(trx, id), 'RJCT', cause, at);
    });
  }

  /** No answer, and the idempotency window may have passed: never re-send blind. */
  async markUnknown(id: string, problem: unknown, cause = 'no answer'): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction(async (trx) => {
      await changeState(trx, {
        entityType: 'bulk',
        id,
        machine: bulkMachine,
        to: 'unknown',
        cause,
        at,
        set: { last_problem: JSON.stringify(problem) },
      });
      await moveLines(trx, await selectLinesOfBulk(trx, id), 'unknown', cause, at);
    });
  }

  /** The bank certainly did not take it (429/503): back to pending, retried with the same key. */
  async markRetryable(id: string, problem: unknown, cause = 'retryable answer'): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction((trx) =>
      changeState(trx, {
        entityType: 'bulk',
        id,
        machine: bulkMachine,
        to: 'pending',
        cause,
        at,
        set: { last_problem: JSON.stringify(problem) },
      }),
    );
  }

  async setState(id: string, to: BulkState, cause: string): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction((trx) =>
      changeState(trx, { entityType: 'bulk', id, machine: bulkMachine, to, cause, at }),
    );
  }

  /**
   * A status the bank reported for the bulk as a whole, applied to each of its lines (when the
   * bank gives no per-line status). Lines already further along keep theirs.
   */
  async applyBankStatusToLines(id: string, status: string, cause: string): Promise<Record<UpdateDecision, number>> {
    const canonical = canonicalBankStatus(status);
    if (canonical === undefined) {
      throw new SettleError('ERR_STATE_UNKNOWN_STATUS', `"${status}" is not a known bank transaction status.`, {
        exitCode: ExitCode.runtime,
        details: { status },
      });
    }
    const at = this.clock.now();
    return this.db.transaction(async (trx) => {
      const counts: Record<UpdateDecision, number> = { apply: 0, duplicate: 0, stale: 0 };
      const lines = await selectLinesOfBulk(trx, id);
      const moving: Row[] = [];
      for (const line of lines) {
        const decision = decideUpdate(lineMachine, toStr(line.state) as LineState, canonical);
        counts[decision]++;
        if (decision === 'apply') moving.push(line);
      }
      await moveLines(trx, moving, canonical, `bank status: ${cause}`, at, { bank_status: canonical });
      return counts;
    });
  }

  /** The bulk's own transactionStatus from the bank; older or repeated statuses are ignored. */
  async applyBankStatus(id: string, status: string, cause: string): Promise<UpdateDecision> {
    const canonical = canonicalBankStatus(status);
    if (canonical === undefined) {
      throw new SettleError('ERR_STATE_UNKNOWN_STATUS', `"${status}" is not a known bank transaction status.`, {
        exitCode: ExitCode.runtime,
        details: { status },
      });
    }
    const at = this.clock.now();
    return this.db.transaction((trx) => applyBulkStatus(trx, id, canonical, cause, at));
  }
}

async function applyBulkStatus(
  trx: Knex.Transaction,
  id: string,
  status: BankStatus,
  cause: string,
  at: Date,
): Promise<UpdateDecision> {
  const row = await lockBulk(trx, id);
  const current = toOptStr(row.bank_status) as BankStatus | undefined;
  const decision = current === undefined ? 'apply' : decideUpdate(bankStatusMachine, current, status);
  if (decision !== 'apply') return decision;
  await trx('bulks')
    .where({ id })
    .update({ bank_status: status, updated_at: instant(at) });
  await logTransitions(trx, [
    { entityType: 'bulk', entityId: id, from: current, to: status, cause: `bank status: ${cause}`, at },
  ]);
  return 'apply';
}

async function lockBulk(trx: Knex.Transaction, id: string): Promise<Row> {
  const row = await forUpdate(trx, trx<Row>('bulks').where({ id })).first();
  if (!row) throw notFound('bulk', id);
  return row;
}

async function selectLines(trx: Knex.Transaction, ids: readonly string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const part of chunks(ids))
    rows.push(
      ...(await forUpdate(
        trx,
        trx<Row>('payments')
          .select('id', 'state', 'file_id', 'bulk_id', 'currency', 'amount_minor')
          .whereIn('id', part),
      )),
    );
  return rows;
}

async function selectLinesOfBulk(trx: Knex.Transaction, bulkId: string): Promise<Row[]> {
  return forUpdate(trx, trx<Row>('payments').select('id', 'state').where({ bulk_id: bulkId }));
}

/** Moves every line that may legally go to `to`; lines already further along keep their state. */
async function moveLines(
  trx: Knex.Transaction,
  lines: readonly Row[],
  to: LineState,
  cause: string,
  at: Date,
  set: Row = {},
): Promise<void> {
  const records: TransitionRecord[] = [];
  for (const line of lines) {
    const from = toStr(line.state) as LineState;
    if (!canTransition(lineMachine, from, to)) continue;
    records.push({ entityType: 'payment', entityId: toStr(line.id), from, to, cause, at });
  }
  for (const part of chunks(records.map((r) => r.entityId))) {
    await trx('payments')
      .whereIn('id', part)
      .update({ ...set, state: to, updated_at: instant(at) });
  }
  await logTransitions(trx, records);
}

function notFound(what: string, id: string): SettleError {
  return new SettleError('ERR_DB_NOT_FOUND', `No ${what} with id ${id}.`, {
    exitCode: ExitCode.runtime,
    details: { id },
  });
}

function toStoredBulk(r: Row): StoredBulk {
  const bankPaymentId = toOptStr(r.bank_payment_id);
  const bankStatus = toOptStr(r.bank_status) as BankStatus | undefined;
  const firstSentAt = toOptDate(r.first_sent_at);
  const lastAttemptAt = toOptDate(r.last_attempt_at);
  const lastProblem = toJson(r.last_problem);
  return {
    id: toStr(r.id),
    fileId: toStr(r.file_id),
    position: toInt(r.position),
    company: toStr(r.company),
    debtorIban: toStr(r.debtor_iban),
    executionDate: toLocalDate(r.execution_date),
    batchBooking: toBool(r.batch_booking),
    idempotencyKey: toStr(r.idempotency_key),
    state: toStr(r.state) as BulkState,
    ...(bankPaymentId === undefined ? {} : { bankPaymentId }),
    ...(bankStatus === undefined ? {} : { bankStatus }),
    lineCount: toInt(r.line_count),
    totals: toJson<Record<string, string>>(r.totals_json) ?? {},
    attempts: toInt(r.attempts),
    ...(firstSentAt === undefined ? {} : { firstSentAt }),
    ...(lastAttemptAt === undefined ? {} : { lastAttemptAt }),
    ...(lastProblem === undefined ? {} : { lastProblem }),
  };
}
