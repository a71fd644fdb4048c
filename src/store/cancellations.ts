// Cancellation requests (jobs/cancel/cancel.ts): what a person or the ERP asked to cancel, who
// confirmed it, and how it ended. Every state change they cause goes through `transition()` in
// the same database transaction as the request's outcome, so a crash leaves either the request
// open (the next run finishes it) or both done:
//   withdraw      — lines not yet at the bank → CANC; a pending bulk that held them is cancelled
//                   and its other lines are queued again in a new bulk with a new key;
//   completeAtBank — after the bank confirmed CANC for a bulk: the named lines → CANC, the bulk →
//                   cancelled, and the bulk's other lines → queued in a new bulk with a new key
//                   (they left the bank cancelled, so they are sent once more, and only once).
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { BulkState, LineState } from '../domain/states.js';
import { recorded } from '../domain/recorded-text.js';
import type { Database } from './database.js';
import { insertNewBulk } from './new-bulk.js';
import { newId } from './ids.js';
import {
  chunks,
  forUpdate,
  IDS_PER_STATEMENT,
  instant,
  toBigInt,
  toBool,
  toInt,
  toOptDate,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';
import { recordCreation, transition } from './transitions.js';

/** One payment line as a cancellation shows it (the person sees every line of the bulk). */
export interface CancellationLine {
  id: string;
  company: string;
  fileId: string;
  fileName: string;
  lineNumber: number;
  endToEndId: string;
  amountMinor: bigint;
  currency: string;
  creditorName: string;
  creditorIban: string;
  state: LineState;
  bulkId?: string;
  bulkState?: BulkState;
  bankPaymentId?: string;
  /** The bulk's own status at the bank, as settle last heard it. */
  bulkBankStatus?: string;
}

export type CancellationOutcome = 'withdrawn' | 'cancelled' | 'refused' | 'declined';
/** Where the request came from: a person on the command line or in the console, or the ERP's camt.055. */
export type CancellationChannel = 'cli' | 'console' | 'camt055';

export interface NewCancellation {
  company: string;
  ref: string;
  paymentIds: readonly string[];
  bulkId?: string;
  reason: string;
  requestedBy: string;
  /** Who asked, as a person (src/domain/person.ts), for four eyes; absent on requests older than migration 0621. */
  requestedPerson?: string;
  channel: CancellationChannel;
  erpMessageId?: string;
  erpCaseId?: string;
}

export interface StoredCancellation extends NewCancellation {
  id: string;
  requestedAt: Date;
  confirmedBy?: string;
  confirmedAt?: Date;
  bankRequestedAt?: Date;
  outcome?: CancellationOutcome;
  outcomeAt?: Date;
  outcomeDetail?: string;
  resentBulkId?: string;
  /** camt.055 answered PDCR (migration 0401): the camt.055 file, the camt.029 version, its OrgnlInstrId. */
  erpFile?: string;
  erpAnswerVersion?: string;
  erpInstructionId?: string;
}

/** ISO 20022 status reason DS02 "order cancelled (by an authorised user)": the ERP sees it with each cancelled line. */
export const ORDER_CANCELLED_CODE = 'DS02';

export class CancellationRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The lines `ref` names, per company: a payment line id, an end-to-end id, settle's bulk id or
   * the bank's payment id of a bulk (all its lines), or `FILE:LINE` (the ERP's file and row).
   */
  async resolve(ref: string, company?: string): Promise<CancellationLine[]> {
    const fileLine = /^(.+):(\d+)$/.exec(ref);
    const q = this.lineQuery().where((w) => {
      void w
        .where('p.id', ref)
        .orWhere('p.end_to_end_id', ref)
        .orWhere('p.bulk_id', ref)
        .orWhere('b.bank_payment_id', ref);
      if (fileLine)
        void w.orWhere((f) => void f.where('f.file_name', fileLine[1]!).where('p.line_number', fileLine[2]!));
    });
    if (company !== undefined) void q.where('p.company', company);
    return (await q).map(toLine);
  }

  /** Every line of a bulk, in file order. */
  async linesOfBulk(bulkId: string): Promise<CancellationLine[]> {
    return (await this.lineQuery().where('p.bulk_id', bulkId)).map(toLine);
  }

  async linesByIds(ids: readonly string[]): Promise<CancellationLine[]> {
    const out: CancellationLine[] = [];
    for (const part of chunks(ids, IDS_PER_STATEMENT))
      out.push(...(await this.lineQuery().whereIn('p.id', part)).map(toLine));
    return out;
  }

  /**
   * The last request of the company that closed (withdrawn or cancelled) with all of these lines:
   * a repeat answers with it. Read through (company, outcome): the company's own, not the bureau's.
   */
  async closedFor(company: string, paymentIds: readonly string[]): Promise<StoredCancellation | undefined> {
    const rows = await this.db
      .knex<Row>('cancellations')
      .where({ company })
      .whereIn('outcome', ['withdrawn', 'cancelled'])
      .orderBy('outcome_at', 'desc');
    return rows.map(toCancellation).find((c) => paymentIds.every((id) => c.paymentIds.includes(id)));
  }

  async create(input: NewCancellation): Promise<StoredCancellation> {
    const id = newId(this.clock);
    await this.db.knex('cancellations').insert({
      id,
      company: input.company,
      ref: input.ref.slice(0, 200),
      payment_ids_json: JSON.stringify(input.paymentIds),
      bulk_id: input.bulkId ?? null,
      reason: input.reason.slice(0, 500),
      requested_by: input.requestedBy,
      requested_person: input.requestedPerson ?? null,
      requested_at: instant(this.clock.now()),
      channel: input.channel,
      erp_message_id: input.erpMessageId ?? null,
      erp_case_id: input.erpCaseId ?? null,
    });
    return (await this.get(id))!;
  }

  async get(id: string): Promise<StoredCancellation | undefined> {
    const row = await this.db.knex<Row>('cancellations').where({ id }).first();
    return row ? toCancellation(row) : undefined;
  }

  /**
   * The company's open requests (no outcome yet) that name any of these lines: a repeat is the
   * same request. Read through (company, outcome): the open ones, not every request kept.
   */
  async openFor(company: string, paymentIds: readonly string[]): Promise<StoredCancellation[]> {
    const wanted = new Set(paymentIds);
    const rows = await this.db
      .knex<Row>('cancellations')
      .where({ company })
      .whereNull('outcome')
      .orderBy('requested_at');
    return rows.map(toCancellation).filter((c) => c.paymentIds.some((id) => wanted.has(id)));
  }

  /** The open request whose DELETE went to the bank for this bulk, if any. */
  async openAtBank(bulkId: string): Promise<StoredCancellation | undefined> {
    const row = await this.db
      .knex<Row>('cancellations')
      .where({ bulk_id: bulkId })
      .whereNull('outcome')
      .whereNotNull('bank_requested_at')
      .first();
    return row ? toCancellation(row) : undefined;
  }

  /** A second person's confirmation (four eyes); the first confirmation counts. */
  async confirm(id: string, by: string): Promise<void> {
    await this.db
      .knex('cancellations')
      .where({ id })
      .whereNull('confirmed_by')
      .update({ confirmed_by: by, confirmed_at: instant(this.clock.now()) });
  }

  /**
   * Four eyes: a second person says no to an open request before anything was sent to the bank;
   * nothing moves and the request closes as `declined`, with who and why. False when the request
   * was no longer open (confirmed and at the bank, or closed meanwhile).
   */
  async decline(id: string, by: string, reason: string): Promise<boolean> {
    const n = await this.db
      .knex('cancellations')
      .where({ id })
      .whereNull('outcome')
      .whereNull('bank_requested_at')
      .update({
        outcome: 'declined',
        outcome_at: instant(this.clock.now()),
        outcome_detail: `declined by ${by}: ${reason}`.slice(0, 500),
      });
    return n > 0;
  }

  /** Recorded before the DELETE is sent, so a crash after it is healed by reading the bulk's status. */
  async markBankRequested(id: string): Promise<void> {
    await this.db
      .knex('cancellations')
      .where({ id })
      .whereNull('bank_requested_at')
      .update({ bank_requested_at: instant(this.clock.now()) });
  }

  async refuse(id: string, detail: string): Promise<void> {
    const at = instant(this.clock.now());
    await this.db
      .knex('cancellations')
      .where({ id })
      .whereNull('outcome')
      .update({ outcome: 'refused', outcome_at: at, outcome_detail: detail.slice(0, 500) });
  }

  /**
   * Lines never sent: → CANC. When they were queued in a bulk not yet sent, that bulk is cancelled
   * (throws ERR_STATE_TRANSITION_ILLEGAL if submit took it meanwhile) and its other lines are
   * queued again in a new bulk.
   */
  async withdraw(id: string): Promise<StoredCancellation> {
    await this.db.transaction(async (trx) => {
      const request = await lockOpen(trx, id);
      const at = this.clock.now();
      const cause = causeOf(request);
      const queued = await bulkOfTargets(trx, request);
      if (queued !== undefined) {
        await transition(trx, { kind: 'bulk', ids: [queued], to: 'cancelled', cause, source: 'cancel', at });
        const others = await otherLines(trx, queued, request.paymentIds);
        // Out of the cancelled bulk and into a new one; the named lines go queued → CANC below.
        await transition(trx, { kind: 'payment', ids: others, to: 'accepted', cause, source: 'cancel', at });
        const resent = await requeue(trx, { oldBulkId: queued, paymentIds: others, cause, at, clock: this.clock });
        await close(trx, id, { outcome: 'withdrawn', at, ...(resent ? { resentBulkId: resent } : {}) });
      } else await close(trx, id, { outcome: 'withdrawn', at });
      await transition(trx, {
        kind: 'payment',
        ids: request.paymentIds,
        to: 'CANC',
        cause,
        source: 'cancel',
        at,
        set: { tpp_messages: cancelMessage(request) },
      });
    });
    return (await this.get(id))!;
  }

  /**
   * The bank confirmed CANC for the request's bulk: its named lines → CANC, the bulk → cancelled,
   * and its other lines → queued in a new bulk with a new idempotency key, all in one
   * transaction. Idempotent: a request already closed is returned as it is.
   */
  async completeAtBank(id: string): Promise<StoredCancellation> {
    await this.db.transaction(async (trx) => {
      const row = await forUpdate(trx, trx<Row>('cancellations').where({ id })).first();
      if (!row) throw notFound(id);
      const request = toCancellation(row);
      if (request.outcome !== undefined) return;
      const bulkId = request.bulkId;
      if (bulkId === undefined) throw notFound(id);
      const at = this.clock.now();
      const cause = causeOf(request);
      const bankCause = `bank confirmed CANC; ${cause}`;
      await transition(trx, {
        kind: 'bank_status',
        ids: [bulkId],
        to: 'CANC',
        cause: bankCause,
        source: 'cancel',
        at,
        mode: 'tolerant',
      });
      await transition(trx, { kind: 'bulk', ids: [bulkId], to: 'cancelled', cause: bankCause, source: 'cancel', at });
      await transition(trx, {
        kind: 'payment',
        ids: request.paymentIds,
        to: 'CANC',
        cause: bankCause,
        source: 'cancel',
        at,
        mode: 'tolerant',
        bankReported: true,
        set: { tpp_messages: cancelMessage(request) },
      });
      const others = await otherLines(trx, bulkId, request.paymentIds);
      const resent = await requeue(trx, { oldBulkId: bulkId, paymentIds: others, cause, at, clock: this.clock });
      await close(trx, id, { outcome: 'cancelled', at, ...(resent ? { resentBulkId: resent } : {}) });
      if (!resent) await completeFileIfFinished(trx, bulkId, at);
    });
    return (await this.get(id))!;
  }

  /** Requests of one camt.055 message, in the order they were made (its camt.029 answers them). */
  async listByErpMessage(company: string, erpMessageId: string): Promise<StoredCancellation[]> {
    const rows = await this.db
      .knex<Row>('cancellations')
      .where({ company, erp_message_id: erpMessageId, channel: 'camt055' })
      .orderBy('requested_at')
      .orderBy('id');
    return rows.map(toCancellation);
  }

  private lineQuery() {
    return this.db
      .knex<Row>('payments as p')
      .join('payment_files as f', 'f.id', 'p.file_id')
      .leftJoin('bulks as b', 'b.id', 'p.bulk_id')
      .select(
        'p.id',
        'p.company',
        'p.file_id',
        'f.file_name',
        'p.line_number',
        'p.end_to_end_id',
        'p.amount_minor',
        'p.currency',
        'p.creditor_name',
        'p.creditor_iban',
        'p.state',
        'p.bulk_id',
        'b.state as bulk_state',
        'b.bank_payment_id',
        'b.bank_status as bulk_bank_status',
      )
      .orderBy('p.file_id')
      .orderBy('p.line_number');
  }
}

async function lockOpen(trx: Knex.Transaction, id: string): Promise<StoredCancellation> {
  const row = await forUpdate(trx, trx<Row>('cancellations').where({ id })).first();
  if (!row) throw notFound(id);
  const request = toCancellation(row);
  if (request.outcome !== undefined)
    throw new SettleError('ERR_CANCEL_REFUSED', `cancellation ${id} was already ${request.outcome}`);
  return request;
}

/** The bulk not yet sent that holds the request's lines, if they are queued in one. */
async function bulkOfTargets(trx: Knex.Transaction, request: StoredCancellation): Promise<string | undefined> {
  const rows = await trx<Row>('payments')
    .distinct('bulk_id')
    .whereIn('id', [...request.paymentIds])
    .whereNotNull('bulk_id');
  return rows.length === 0 ? undefined : toStr(rows[0]!.bulk_id);
}

/** The bulk's file → completed when it was submitted and every bulk of it is now final. */
async function completeFileIfFinished(trx: Knex.Transaction, bulkId: string, at: Date): Promise<void> {
  const bulk = await trx<Row>('bulks').select('file_id').where({ id: bulkId }).first();
  const fileId = toStr(bulk!.file_id);
  const file = await trx<Row>('payment_files').select('state').where({ id: fileId }).first();
  if (toOptStr(file?.state) !== 'submitted') return;
  const open = await trx<Row>('bulks')
    .count({ n: '*' })
    .where({ file_id: fileId })
    .whereNotIn('state', ['done', 'rejected', 'cancelled'])
    .first();
  if (Number(open?.n ?? 0) > 0) return;
  await transition(trx, {
    kind: 'payment_file',
    ids: [fileId],
    to: 'completed',
    cause: 'every bulk final (the last one cancelled)',
    source: 'cancel',
    at,
  });
}

async function otherLines(trx: Knex.Transaction, bulkId: string, named: readonly string[]): Promise<string[]> {
  const skip = new Set(named);
  const rows = await trx<Row>('payments').select('id').where({ bulk_id: bulkId }).orderBy('line_number');
  return rows.map((r) => toStr(r.id)).filter((id) => !skip.has(id));
}

interface Requeue {
  oldBulkId: string;
  paymentIds: readonly string[];
  cause: string;
  at: Date;
  clock: Clock;
}

/**
 * A new bulk of the same file for `paymentIds`, placed after the file's existing bulks: a new
 * position gives a new idempotency key (the old key's answer at the bank is the cancelled bulk).
 */
async function requeue(trx: Knex.Transaction, r: Requeue): Promise<string | undefined> {
  if (r.paymentIds.length === 0) return undefined;
  const old = await forUpdate(trx, trx<Row>('bulks').where({ id: r.oldBulkId })).first();
  if (!old) throw new SettleError('ERR_DB_NOT_FOUND', `No bulk with id ${r.oldBulkId}.`);
  const fileId = toStr(old.file_id);
  const file = await trx<Row>('payment_files').select('sha256').where({ id: fileId }).first();
  const max = await trx<Row>('bulks').max({ m: 'position' }).where({ file_id: fileId }).first();
  const position = toInt(max?.m ?? 0) + 1;
  const totals = new Map<string, bigint>();
  for (const part of chunks(r.paymentIds, IDS_PER_STATEMENT))
    for (const l of await trx<Row>('payments').select('currency', 'amount_minor').whereIn('id', part))
      totals.set(toStr(l.currency), (totals.get(toStr(l.currency)) ?? 0n) + toBigInt(l.amount_minor));
  const id = newId(r.clock);
  const cause = `queued again after its bulk ${r.oldBulkId} was cancelled (${r.cause})`;
  await insertNewBulk(
    trx,
    {
      id,
      file_id: fileId,
      position,
      company: toStr(old.company),
      debtor_iban: toStr(old.debtor_iban),
      execution_date: toStr(old.execution_date),
      batch_booking: toBool(old.batch_booking),
      state: 'pending',
      line_count: r.paymentIds.length,
      totals_json: JSON.stringify(Object.fromEntries([...totals].map(([c, v]) => [c, v.toString()]))),
      attempts: 0,
      created_at: instant(r.at),
      updated_at: instant(r.at),
    },
    toStr(file!.sha256),
  );
  await recordCreation(trx, {
    kind: 'bulk',
    ids: [id],
    company: toStr(old.company),
    to: 'pending',
    cause,
    source: 'cancel',
    at: r.at,
  });
  await transition(trx, {
    kind: 'payment',
    ids: r.paymentIds,
    to: 'queued',
    cause,
    source: 'cancel',
    at: r.at,
    set: { bulk_id: id },
  });
  return id;
}

async function close(
  trx: Knex.Transaction,
  id: string,
  end: { outcome: CancellationOutcome; at: Date; resentBulkId?: string },
): Promise<void> {
  await trx('cancellations')
    .where({ id })
    .update({ outcome: end.outcome, outcome_at: instant(end.at), resent_bulk_id: end.resentBulkId ?? null });
}

function causeOf(request: StoredCancellation): string {
  const who = request.confirmedBy ? `${request.requestedBy}, confirmed by ${request.confirmedBy}` : request.requestedBy;
  return `cancelled by ${who}: ${request.reason}`;
}

/** The line's words in its status file: the English cause, and the same as a catalogue sentence. */
function cancelMessage(request: StoredCancellation): string {
  const { requestedBy, confirmedBy, reason } = request;
  const words = confirmedBy
    ? recorded('lineText.cancelledConfirmed', { requestedBy, confirmedBy, reason })
    : recorded('lineText.cancelled', { requestedBy, reason });
  return JSON.stringify([{ category: 'INFO', code: ORDER_CANCELLED_CODE, message: causeOf(request), ...words }]);
}

function notFound(id: string): SettleError {
  return new SettleError('ERR_CANCEL_NOT_FOUND', `No cancellation request ${id}; see settle payments cancel --help`);
}

function toLine(r: Row): CancellationLine {
  const bulkId = toOptStr(r.bulk_id);
  const bulkState = toOptStr(r.bulk_state) as BulkState | undefined;
  const bankPaymentId = toOptStr(r.bank_payment_id);
  const bulkBankStatus = toOptStr(r.bulk_bank_status);
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    fileId: toStr(r.file_id),
    fileName: toStr(r.file_name),
    lineNumber: toInt(r.line_number),
    endToEndId: toStr(r.end_to_end_id),
    amountMinor: toBigInt(r.amount_minor),
    currency: toStr(r.currency),
    creditorName: toStr(r.creditor_name),
    creditorIban: toStr(r.creditor_iban),
    state: toStr(r.state) as LineState,
    ...(bulkId === undefined ? {} : { bulkId }),
    ...(bulkState === undefined ? {} : { bulkState }),
    ...(bankPaymentId === undefined ? {} : { bankPaymentId }),
    ...(bulkBankStatus === undefined ? {} : { bulkBankStatus }),
  };
}

export function toCancellation(r: Row): StoredCancellation {
  const opt = <K extends string, V>(key: K, value: V | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    ref: toStr(r.ref),
    paymentIds: JSON.parse(toStr(r.payment_ids_json)) as string[],
    ...opt('bulkId', toOptStr(r.bulk_id)),
    reason: toStr(r.reason),
    requestedBy: toStr(r.requested_by),
    ...opt('requestedPerson', toOptStr(r.requested_person)),
    requestedAt: new Date(toStr(r.requested_at)),
    channel: toStr(r.channel) as CancellationChannel,
    ...opt('erpMessageId', toOptStr(r.erp_message_id)),
    ...opt('erpCaseId', toOptStr(r.erp_case_id)),
    ...opt('confirmedBy', toOptStr(r.confirmed_by)),
    ...opt('confirmedAt', toOptDate(r.confirmed_at)),
    ...opt('bankRequestedAt', toOptDate(r.bank_requested_at)),
    ...opt('outcome', toOptStr(r.outcome) as CancellationOutcome | undefined),
    ...opt('outcomeAt', toOptDate(r.outcome_at)),
    ...opt('outcomeDetail', toOptStr(r.outcome_detail)),
    ...opt('resentBulkId', toOptStr(r.resent_bulk_id)),
    ...opt('erpFile', toOptStr(r.erp_file)),
    ...opt('erpAnswerVersion', toOptStr(r.erp_answer_version)),
    ...opt('erpInstructionId', toOptStr(r.erp_instruction_id)),
  };
}
