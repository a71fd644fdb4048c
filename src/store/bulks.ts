// Bulks are the outbox (architecture §2.2–2.3): each bulk request is stored with its
// deterministic Idempotency-Key and committed before the first POST; every send attempt,
// answer and non-answer is a state change with a transition row. An unanswered send becomes
// `unknown`, which is resolved by a lookup, never by sending again blind.
import type { Knex } from 'knex';
import type { LineSpan } from '../domain/plans/plan.js';
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import {
  canonicalBankStatus,
  type BankStatus,
  type BulkState,
  type PaymentState,
  type UpdateDecision,
} from '../domain/states.js';
import { SettleError } from '../domain/errors.js';
import type { Database } from './database.js';
import { lockingRead, readRows, write } from './direct-sql.js';
import { newId } from './ids.js';
import { insertNewBulk } from './new-bulk.js';
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
import { recordCreation, transition, type TransitionSource } from './transitions.js';
import { cause as causes, type CauseInput } from '../domain/transition-cause.js';

export interface BulkPlan {
  /** 0-based position of the bulk within its file; with the file hash it fixes the idempotency key. */
  position: number;
  debtorIban: string;
  executionDate: LocalDate;
  batchBooking: boolean;
  paymentIds: readonly string[];
  /**
   * The first and last line numbers of those payments (planBulks gives it): their move into the
   * bulk then reads the file's payments in that span instead of finding a thousand ids one by one,
   * or, as SQLite chose without it, walking every payment of the file for each bulk (a file's plan
   * grew with its payments times its bulks). A span that leaves a payment out makes the plan fail,
   * never a payment move unseen.
   */
  lineSpan?: LineSpan;
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
  /** The bank and consent it was sent under (spec §4.6); absent before it was sent. */
  bankId?: string;
  consentId?: string;
}

export class BulkOutbox {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates the bulks of a file and queues their payments, in one transaction. Idempotent: a
   * plan whose bulk already exists (same file and position) is returned as stored.
   */
  async createBulks(
    fileId: string,
    plans: readonly BulkPlan[],
    cause: CauseInput = causes.submit(),
  ): Promise<StoredBulk[]> {
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
        if (new Set(plan.paymentIds).size !== plan.paymentIds.length)
          throw new SettleError('ERR_DB_BULK_PLAN_INVALID', `A bulk plan of file ${fileId} names a payment twice.`);
        const id = newId(this.clock);
        await insertNewBulk(
          trx,
          {
            id,
            file_id: fileId,
            position: plan.position,
            company: toStr(file.company),
            debtor_iban: plan.debtorIban,
            execution_date: plan.executionDate,
            batch_booking: plan.batchBooking,
            state: 'pending',
            line_count: plan.paymentIds.length,
            totals_json: '{}',
            attempts: 0,
            created_at: instant(now),
            updated_at: instant(now),
          },
          toStr(file.sha256),
        );
        await recordCreation(trx, {
          kind: 'bulk',
          ids: [id],
          company: toStr(file.company),
          to: 'pending',
          cause,
          source: 'submit',
          at: now,
        });
        // The payments join the bulk as they move to queued: one conditional UPDATE writes bulk_id
        // and state, and takes only the file's accepted payments in no bulk (a payment in two bulks
        // would be paid twice; any other plan is refused and rolled back), and one transition row
        // records the bulk's payments. Their totals are summed by the database, not read payment by payment.
        await transition(trx, {
          kind: 'payment',
          ids: {
            bulkId: id,
            joining: plan.paymentIds,
            fileId,
            company: toStr(file.company),
            ...(plan.lineSpan ? { lineSpan: plan.lineSpan } : {}),
          },
          to: 'queued',
          cause,
          source: 'submit',
          at: now,
        });
        await write(trx, 'update bulks set totals_json = ? where id = ?', [
          JSON.stringify(await totalsOfBulk(trx, id)),
          id,
        ]);
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

  /**
   * Bulks in `state`, oldest first (within each company); with `companies`, only theirs: a
   * company's step reads its own through bulks_console_state_ix, not every bulk of a bureau's
   * thousand companies each time.
   */
  async listByState(state: BulkState, companies?: readonly string[]): Promise<StoredBulk[]> {
    const query = () => this.db.knex<Row>('bulks').where({ state }).orderBy('id');
    if (companies === undefined) return (await query()).map(toStoredBulk);
    const out: StoredBulk[] = [];
    // Row by row: one company can have more bulks in a state than a spread call takes arguments.
    for (const part of chunks(companies))
      for (const row of await query().whereIn('company', part)) out.push(toStoredBulk(row));
    return out;
  }

  /** Before each POST: counts the attempt; pending → sending (a retry of a sending bulk stays sending). */
  async markSending(id: string, cause: CauseInput = causes.send()): Promise<StoredBulk> {
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
        await transition(trx, { kind: 'bulk', ids: [id], to: 'sending', cause, source: 'submit', at, set: counters });
    });
    return (await this.get(id))!;
  }

  /**
   * The payments of a bulk, by id and end-to-end id, as the plan of a bank's answer that gives its
   * payments different statuses needs them (src/domain/plans/sent-bulk-plan.ts).
   */
  async paymentsByEndToEndId(bulkId: string): Promise<{ id: string; endToEndId: string }[]> {
    const rows = await this.db.knex<Row>('payments').select('id', 'end_to_end_id').where({ bulk_id: bulkId });
    return rows.map((r) => ({ id: toStr(r.id), endToEndId: toStr(r.end_to_end_id) }));
  }

  /**
   * The execution date a bulk not yet sent is sent with, moved by its bank's cut-off. Only a
   * bulk still `pending` and never sent moves: a key already used keeps the body it went with.
   * The payments keep the date the ERP asked for. False when the bulk no longer qualifies.
   */
  async moveExecutionDate(id: string, to: LocalDate): Promise<boolean> {
    const moved = await this.db
      .knex('bulks')
      .where({ id, state: 'pending' })
      .whereNull('first_sent_at')
      .update({ execution_date: to, updated_at: instant(this.clock.now()) });
    return moved > 0;
  }

  /** The bank refused the bulk (a final 4xx), or a person confirmed it never got there: bulk and payments are rejected. */
  async markRejected(
    id: string,
    problem: unknown,
    cause: CauseInput = causes.bankRejected(),
    source: TransitionSource = 'submit',
  ): Promise<void> {
    await this.closeWithPayments(id, { to: 'rejected', payments: 'RJCT', problem, cause, source });
  }

  /** No answer, and the idempotency window may have passed: never re-send blind. */
  async markUnknown(id: string, problem: unknown, cause: CauseInput = causes.noAnswer()): Promise<void> {
    await this.closeWithPayments(id, { to: 'unknown', payments: 'unknown', problem, cause, source: 'submit' });
  }

  /** The bank certainly did not take it (429/503): back to pending, retried with the same key. */
  async markRetryable(id: string, problem: unknown, cause: CauseInput = causes.retryableAnswer()): Promise<void> {
    const at = this.clock.now();
    const set = { last_problem: JSON.stringify(problem) };
    await this.db.transaction((trx) =>
      transition(trx, { kind: 'bulk', ids: [id], to: 'pending', cause, source: 'submit', at, set }),
    );
  }

  /** A move of the bulk alone (done when every payment is final, attention when a lookup found nothing). */
  async setState(id: string, to: BulkState, cause: CauseInput, source: TransitionSource): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction((trx) => transition(trx, { kind: 'bulk', ids: [id], to, cause, source, at }));
  }

  /**
   * A status the bank reported for the bulk as a whole, applied to all of its payments at once (when
   * the bank gives no per-line status). Payments already further along keep theirs.
   */
  async applyBankStatusToPayments(
    id: string,
    status: string,
    cause: CauseInput,
    source: TransitionSource,
  ): Promise<Record<UpdateDecision, number>> {
    const canonical = knownStatus(status);
    const at = this.clock.now();
    return this.db.transaction(async (trx) => {
      const r = await transition(trx, {
        kind: 'payment',
        ids: { bulkId: id },
        to: canonical,
        cause: causes.bankStatus(cause),
        source,
        at,
        mode: 'tolerant',
        bankReported: true,
      });
      return { apply: r.moved, duplicate: r.duplicate, stale: r.stale + r.refused.length };
    });
  }

  /** The bulk's own transactionStatus from the bank; older or repeated statuses are ignored. */
  async applyBankStatus(
    id: string,
    status: string,
    cause: CauseInput,
    source: TransitionSource,
  ): Promise<UpdateDecision> {
    const canonical = knownStatus(status);
    // The status it already has (most polls): nothing to lock or write, one read instead of a
    // transaction of three statements. A status read without the lock can only be overtaken by
    // a newer one written since, which the locked move would refuse as stale all the same.
    const stored = await this.db.knex<Row>('bulks').select('bank_status').where({ id }).first();
    if (stored !== undefined && toOptStr(stored.bank_status) === canonical) return 'duplicate';
    const at = this.clock.now();
    const r = await this.db.transaction((trx) =>
      transition(trx, {
        kind: 'bank_status',
        ids: [id],
        to: canonical,
        cause: causes.bankStatus(cause),
        source,
        at,
        mode: 'tolerant',
      }),
    );
    return r.moved > 0 ? 'apply' : r.duplicate > 0 ? 'duplicate' : 'stale';
  }

  private async closeWithPayments(id: string, close: BulkClose): Promise<void> {
    const { to, payments, problem, cause, source } = close;
    const at = this.clock.now();
    const set = { last_problem: JSON.stringify(problem) };
    await this.db.transaction(async (trx) => {
      await transition(trx, { kind: 'bulk', ids: [id], to, cause, source, at, set });
      await movePayments(trx, id, { to: payments, cause, source, at });
    });
  }
}

/** A bulk that ends without reaching the bank's books, and what its payments become. */
interface BulkClose {
  to: 'rejected' | 'unknown';
  payments: PaymentState;
  problem: unknown;
  cause: CauseInput;
  source: TransitionSource;
}

interface PaymentMove {
  to: PaymentState;
  cause: CauseInput;
  source: TransitionSource;
  at: Date;
}

function knownStatus(status: string): BankStatus {
  const canonical = canonicalBankStatus(status);
  if (canonical === undefined) {
    throw new SettleError('ERR_STATE_UNKNOWN_STATUS', `"${status}" is not a known bank transaction status.`, {
      details: { status },
    });
  }
  return canonical;
}

async function lockBulk(trx: Knex.Transaction, id: string): Promise<Row> {
  const [row] = await readRows(trx, `select * from bulks where id = ?${lockingRead(trx)}`, [id]);
  if (!row) throw notFound('bulk', id);
  return row;
}

/** A bulk's amounts per currency, summed by the database (minor units as decimal strings). */
async function totalsOfBulk(trx: Knex.Transaction, bulkId: string): Promise<Record<string, string>> {
  const rows = await readRows(
    trx,
    'select currency, sum(amount_minor) as total from payments where bulk_id = ? group by currency order by currency',
    [bulkId],
  );
  return Object.fromEntries(rows.map((r) => [toStr(r.currency), toBigInt(r.total).toString()]));
}

/** Moves every payment of the bulk that may legally go to `to`; payments already further along keep their state. */
async function movePayments(
  trx: Knex.Transaction,
  bulkId: string,
  move: PaymentMove,
  reported: { bankReported?: boolean } = {},
): Promise<void> {
  const { to, cause, source, at } = move;
  await transition(trx, {
    kind: 'payment',
    ids: { bulkId },
    to,
    cause,
    source,
    at,
    mode: 'tolerant',
    ...reported,
  });
}

function notFound(what: string, id: string): SettleError {
  return new SettleError('ERR_DB_NOT_FOUND', `No ${what} with id ${id}.`, {
    details: { id },
  });
}

export function toStoredBulk(r: Row): StoredBulk {
  const bankPaymentId = toOptStr(r.bank_payment_id);
  const bankStatus = toOptStr(r.bank_status) as BankStatus | undefined;
  const firstSentAt = toOptDate(r.first_sent_at);
  const lastAttemptAt = toOptDate(r.last_attempt_at);
  const lastProblem = toJson(r.last_problem);
  const bankId = toOptStr(r.bank_id);
  const consentId = toOptStr(r.consent_id);
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
    ...(bankId === undefined ? {} : { bankId }),
    ...(consentId === undefined ? {} : { consentId }),
  };
}
