// Cancellation requests (jobs/cancel/cancel.ts): what a person or the ERP asked to cancel, who
// confirmed it, and how it ended; and the reads a cancellation's plan is made of. Which payments the
// request moves, and how, is the plan's (src/domain/plans/cancellation-plan.ts); the store applies
// it with the request's outcome in one transaction (src/store/apply-plan.ts).
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { BulkState, FileState, PaymentState } from '../domain/states.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import { chunks, IDS_PER_STATEMENT, instant, toBigInt, toInt, toOptDate, toOptStr, toStr, type Row } from './rows.js';

/** One payment as a cancellation shows it (the person sees every payment of the bulk). */
export interface PaymentToCancel {
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
  state: PaymentState;
  bulkId?: string;
  bulkState?: BulkState;
  bankPaymentId?: string;
  /** The bulk's own status at the bank, as settle last heard it. */
  bulkBankStatus?: string;
}

/** A bulk's file as a cancellation that ends the bulk reads it. */
export interface BulkFile {
  fileId: string;
  state: FileState;
  /** The file's other bulks not final yet (done, rejected or cancelled). */
  otherBulksOpen: number;
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

export class CancellationRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The payments `ref` names, per company: a payment id, an end-to-end id, settle's bulk id or
   * the bank's payment id of a bulk (all its payments), or `FILE:LINE` (the ERP's file and row).
   */
  async resolve(ref: string, company?: string): Promise<PaymentToCancel[]> {
    const fileLine = /^(.+):(\d+)$/.exec(ref);
    const q = this.paymentQuery().where((w) => {
      void w
        .where('p.id', ref)
        .orWhere('p.end_to_end_id', ref)
        .orWhere('p.bulk_id', ref)
        .orWhere('b.bank_payment_id', ref);
      if (fileLine)
        void w.orWhere((f) => void f.where('f.file_name', fileLine[1]!).where('p.line_number', fileLine[2]!));
    });
    if (company !== undefined) void q.where('p.company', company);
    return (await q).map(toPayment);
  }

  /** Every payment of a bulk, in file order. */
  async paymentsOfBulk(bulkId: string): Promise<PaymentToCancel[]> {
    return (await this.paymentQuery().where('p.bulk_id', bulkId)).map(toPayment);
  }

  async paymentsByIds(ids: readonly string[]): Promise<PaymentToCancel[]> {
    const out: PaymentToCancel[] = [];
    for (const part of chunks(ids, IDS_PER_STATEMENT))
      out.push(...(await this.paymentQuery().whereIn('p.id', part)).map(toPayment));
    return out;
  }

  /**
   * The last request of the company that closed (withdrawn or cancelled) with all of these payments:
   * a repeat answers with it. Read through (company, outcome): the company's own, not the bureau's.
   */
  async closedFor(company: string, paymentIds: readonly string[]): Promise<StoredCancellation | undefined> {
    const rows = await this.db
      .knex<Row>('cancellations')
      .where({ company })
      .whereIn('outcome', ['withdrawn', 'cancelled'])
      .orderBy('outcome_at', 'desc');
    return rows.map(toCancellation).find((c) => {
      const closed = new Set(c.paymentIds);
      return paymentIds.every((id) => closed.has(id));
    });
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
   * The company's open requests (no outcome yet) that name any of these payments: a repeat is the
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
   * The file of a bulk: its state and how many of its other bulks are not final yet (a
   * cancellation that ends the bulk may complete the file; src/domain/plans/cancellation-plan.ts).
   */
  async fileOfBulk(bulkId: string): Promise<BulkFile> {
    const bulk = await this.db.knex<Row>('bulks').select('file_id').where({ id: bulkId }).first();
    if (!bulk) throw new SettleError('ERR_DB_NOT_FOUND', `No bulk with id ${bulkId}.`);
    const fileId = toStr(bulk.file_id);
    const file = await this.db.knex<Row>('payment_files').select('state').where({ id: fileId }).first();
    const open = await this.db
      .knex<Row>('bulks')
      .count({ n: '*' })
      .where({ file_id: fileId })
      .whereNot({ id: bulkId })
      .whereNotIn('state', ['done', 'rejected', 'cancelled'])
      .first();
    return { fileId, state: toStr(file!.state) as FileState, otherBulksOpen: Number(open?.n ?? 0) };
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

  private paymentQuery() {
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

function toPayment(r: Row): PaymentToCancel {
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
    state: toStr(r.state) as PaymentState,
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
