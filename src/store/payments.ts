// Payments after acceptance: reading them back with exact amounts, and moving them
// through the payment state machine. Bank status from polling and from webhooks comes through
// `applyBankStatus` (one call per status for many payments), which ignores duplicates and stale
// (older) statuses.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { PaymentInstruction, InstructionPriority } from '../domain/payment.js';
import type { RecordedText } from '../domain/recorded-text.js';
import { canonicalBankStatus, type BulkState, type PaymentState } from '../domain/states.js';
import { SettleError } from '../domain/errors.js';
import type { Database } from './database.js';
import {
  chunks,
  instant,
  toBigInt,
  toBool,
  toDate,
  toInt,
  toLocalDate,
  toOptBool,
  toOptStr,
  throughIndex,
  toStr,
  type Row,
} from './rows.js';
import { bulkCountsLinesOutside } from './state-counts.js';
import { transition, type TransitionResult, type TransitionSource } from './transitions.js';
import type { CauseInput } from '../domain/transition-cause.js';

/** Bulks the bank may hold while settle has not recorded the bank's id: the POST's answer is pending or lost. */
const BULKS_AWAITING_BANK_ID: readonly BulkState[] = ['sending', 'unknown', 'attention'];

/** One bank status for a set of payments, as the poll, a webhook or a person reports it. */
export interface BankStatusUpdate {
  /** The bank's transaction status, any case ("acsc", "ACSC"). */
  status: string;
  cause: CauseInput;
  source: TransitionSource;
  tppMessages?: readonly TppMessage[];
}

export interface TppMessage {
  category?: string;
  code?: string;
  message?: string | null;
  /** Settle's own words (a hold, a drop, a cancellation) as a catalogue sentence; `message` is their English. */
  key?: string;
  values?: RecordedText['values'];
}

export interface StoredPayment extends PaymentInstruction {
  id: string;
  fileId: string;
  company: string;
  state: PaymentState;
  bulkId?: string;
  bankStatus?: string;
  tppMessages: TppMessage[];
}

/** A payment as planning bulks sees it: where it goes, and whether it is planned already. */
export type PlannableStoredPayment = Pick<
  StoredPayment,
  'id' | 'debtorIban' | 'requestedExecutionDate' | 'batchBooking' | 'lineNumber' | 'state' | 'bulkId'
>;

/** A payment as a bulk's request to the bank carries it. */
export type RequestLine = Pick<
  StoredPayment,
  | 'endToEndId'
  | 'debtorName'
  | 'amount'
  | 'creditorIban'
  | 'creditorName'
  | 'creditorBic'
  | 'remittanceInformation'
  | 'creditorReference'
  | 'instructionPriority'
  | 'ultimateDebtor'
  | 'ultimateCreditor'
  | 'purpose'
>;

/** One of settle's own payments as a statement quotes it: the payment and the ids of its message and bulk. */
export interface OwnPayment extends StoredPayment {
  /** GrpHdr/MsgId of the ERP's file, when it had one (pain.001). */
  messageId?: string;
  /** The bank's id of the bulk the payment went in. */
  bankPaymentId?: string;
}

export class PaymentRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Payments with this end-to-end id in bulks the bank may hold but settle has no bank id of yet
   * (sending, unknown, attention): the only payments a bank event can name before settle knows the
   * bank's bulk. One company's when `company` is given. Read through those few bulks, not through
   * every payment ever kept (an end-to-end id is indexed only with its company), and never a payment the
   * bank already numbered: an event for someone else's payment with the same end-to-end id (the
   * subscription is the bureau's; "NOTPROVIDED" is common) must not move one of ours.
   */
  async paymentsAwaitingBankId(
    endToEndId: string,
    company?: string,
  ): Promise<{ id: string; company: string; bulkId: string }[]> {
    // The bulks first, by state (few are in flight), then their payments, each through its index:
    // a planner that sees a small table would read it whole, and the table grows every night.
    const knex = this.db.knex;
    const bulks = knex
      .from<Row>(throughIndex(knex, 'bulks', company === undefined ? 'bulks_state_ix' : 'bulks_console_state_ix'))
      .whereIn('state', BULKS_AWAITING_BANK_ID)
      .whereNull('bank_payment_id');
    if (company !== undefined) void bulks.where({ company });
    const bulkIds = (await bulks.pluck('id')) as string[];
    const out: { id: string; company: string; bulkId: string }[] = [];
    for (const part of chunks(bulkIds))
      for (const r of await this.db
        .knex<Row>('payments')
        .select('id', 'company', 'bulk_id')
        .whereIn('bulk_id', part)
        .where({ end_to_end_id: endToEndId }))
        out.push({ id: toStr(r.id), company: toStr(r.company), bulkId: toStr(r.bulk_id) });
    return out;
  }

  /**
   * A company's own payments that booked transactions name: by end-to-end id, and by the bank's
   * bulk id (a bulk booked as one entry names only the bulk), payments in file order.
   */
  async ownPayments(
    company: string,
    names: { endToEndIds: readonly string[]; bankPaymentIds: readonly string[] },
  ): Promise<OwnPayment[]> {
    const out: OwnPayment[] = [];
    const query = (column: string, values: readonly string[]) =>
      this.db
        .knex<Row>('payments as p')
        .leftJoin('payment_files as f', 'f.id', 'p.file_id')
        .leftJoin('bulks as b', 'b.id', 'p.bulk_id')
        .where('p.company', company)
        .whereIn(column, values)
        .select('p.*', 'f.message_id as file_message_id', 'b.bank_payment_id as bulk_bank_payment_id')
        .orderBy('p.file_id')
        .orderBy('p.line_number');
    const seen = new Set<string>();
    for (const [column, values] of [
      ['p.end_to_end_id', names.endToEndIds],
      ['b.bank_payment_id', names.bankPaymentIds],
    ] as const) {
      for (const part of chunks([...new Set(values)], 200)) {
        for (const r of (await query(column, part)) as Row[]) {
          const payment = toStoredPayment(r);
          if (seen.has(payment.id)) continue;
          seen.add(payment.id);
          const messageId = toOptStr(r.file_message_id);
          const bankPaymentId = toOptStr(r.bulk_bank_payment_id);
          out.push({
            ...payment,
            ...(messageId === undefined ? {} : { messageId }),
            ...(bankPaymentId === undefined ? {} : { bankPaymentId }),
          });
        }
      }
    }
    return out;
  }

  /** When each payment of a file last changed state (the time reported to the ERP). */
  async changeTimes(fileId: string): Promise<Map<string, Date>> {
    const rows = await this.db.knex<Row>('payments').select('id', 'updated_at').where({ file_id: fileId });
    return new Map(rows.map((r) => [toStr(r.id), toDate(r.updated_at)]));
  }

  /**
   * Files with at least one payment that changed at or after `since`: read by the files' own
   * `lines_changed_at` (written with every move of their payments, src/store/transitions.ts) through
   * (company, lines_changed_at), so the read costs the files of the window, not every payment the
   * company ever had.
   */
  async filesChangedSince(company: string, since: Date): Promise<string[]> {
    const rows = await this.db
      .knex<Row>('payment_files')
      .select('id')
      .where({ company })
      .where('lines_changed_at', '>=', instant(since));
    return rows.map((r) => toStr(r.id)).sort();
  }

  async listByFile(fileId: string): Promise<StoredPayment[]> {
    return (await this.db.knex<Row>('payments').where({ file_id: fileId }).orderBy('line_number')).map(toStoredPayment);
  }

  /** What planning a file's bulks needs of its payments (src/domain/plans/bulk-plan.ts), and no more. */
  async plannableByFile(fileId: string): Promise<PlannableStoredPayment[]> {
    const rows = await arrays(
      this.db
        .knex('payments')
        .select('id', 'debtor_iban', 'execution_date', 'line_number', 'state', 'batch_booking', 'bulk_id')
        .where({ file_id: fileId })
        .orderBy('line_number'),
    );
    // Built field by field, the optional ones only when present: a spread a field cost a copy a payment.
    return rows.map(([id, debtorIban, executionDate, lineNumber, state, batchBooking, bulkId]) => {
      const payment: PlannableStoredPayment = {
        id: toStr(id),
        debtorIban: toStr(debtorIban),
        requestedExecutionDate: toLocalDate(executionDate),
        lineNumber: toInt(lineNumber),
        state: toStr(state) as PaymentState,
      };
      if (batchBooking !== null && batchBooking !== undefined) payment.batchBooking = toBool(batchBooking);
      if (bulkId !== null && bulkId !== undefined) payment.bulkId = toStr(bulkId);
      return payment;
    });
  }

  /** What a bulk's request to the bank carries of each payment (jobs/submit/bulk-request.ts), in file order. */
  async requestLinesOfBulk(bulkId: string): Promise<RequestLine[]> {
    const rows = await arrays(
      this.db
        .knex('payments')
        .select('end_to_end_id', 'debtor_name', 'amount_minor', 'currency', 'creditor_iban', 'creditor_name')
        .select('creditor_bic', 'remittance', 'creditor_reference', 'priority')
        .select('ultimate_debtor', 'ultimate_creditor', 'purpose')
        .where({ bulk_id: bulkId })
        .orderBy('line_number'),
    );
    return rows.map((row) => {
      const [endToEndId, debtorName, minor, currency, creditorIban, creditorName] = row;
      const line: RequestLine = {
        endToEndId: toStr(endToEndId),
        debtorName: toStr(debtorName),
        amount: { minor: toBigInt(minor), currency: toStr(currency) },
        creditorIban: toStr(creditorIban),
        creditorName: toStr(creditorName),
      };
      const [, , , , , , bic, remittance, reference, priority, ultimateDebtor, ultimateCreditor, purpose] = row;
      if (bic !== null && bic !== undefined) line.creditorBic = toStr(bic);
      if (remittance !== null && remittance !== undefined) line.remittanceInformation = toStr(remittance);
      if (reference !== null && reference !== undefined) line.creditorReference = toStr(reference);
      if (priority !== null && priority !== undefined)
        line.instructionPriority = toStr(priority) as InstructionPriority;
      if (ultimateDebtor !== null && ultimateDebtor !== undefined) line.ultimateDebtor = toStr(ultimateDebtor);
      if (ultimateCreditor !== null && ultimateCreditor !== undefined) line.ultimateCreditor = toStr(ultimateCreditor);
      if (purpose !== null && purpose !== undefined) line.purpose = toStr(purpose);
      return line;
    });
  }

  async listByBulk(bulkId: string): Promise<StoredPayment[]> {
    return (await this.db.knex<Row>('payments').where({ bulk_id: bulkId }).orderBy('line_number')).map(toStoredPayment);
  }

  /** What a status report is compared with, per payment of a bulk: a narrow read, no full payment built. */
  async statusOfBulkPayments(
    bulkId: string,
  ): Promise<{ id: string; endToEndId: string; state: PaymentState; tppMessages: TppMessage[] }[]> {
    const rows = await this.db
      .knex<Row>('payments')
      .select('id', 'end_to_end_id', 'state', 'tpp_messages')
      .where({ bulk_id: bulkId });
    return rows.map((r) => ({
      id: toStr(r.id),
      endToEndId: toStr(r.end_to_end_id),
      state: toStr(r.state) as PaymentState,
      tppMessages: tppOf(r),
    }));
  }

  /** Whether every payment of the bulk is in one of `states`: its counts first, then its lines. */
  async bulkAllIn(bulkId: string, states: readonly string[]): Promise<boolean> {
    // A bulk's line events come one by one, and each line that became final asks this. Its lines'
    // counts (bulk_line_counts, kept in the transaction of every move) answer "not yet" from a few
    // rows; reading the lines for the first in another state read every final line before it, so
    // events in line order cost the bulk's lines squared (a 5,000-line bulk, 12.5 million rows).
    if (await bulkCountsLinesOutside(this.db.knex, bulkId, states)) return false;
    // The counts say every line is in: the lines themselves confirm it, once for the bulk, so
    // the bulk closes on what its lines hold, never on a count alone.
    const other = await this.db
      .knex<Row>('payments')
      .select('id')
      .where({ bulk_id: bulkId })
      .whereNotIn('state', [...states])
      .first();
    return other === undefined;
  }

  /**
   * The payment of a bulk with this end-to-end id (a line's status event names it so): through the
   * company's unique index of end-to-end ids, one row, where reading the bulk's lines to find it
   * cost a whole bulk for every event.
   */
  async idInBulk(bulkId: string, endToEndId: string): Promise<string | undefined> {
    const bulk = await this.db.knex<Row>('bulks').select('company').where({ id: bulkId }).first();
    if (bulk === undefined) return undefined;
    const row = await this.db
      .knex<Row>('payments')
      .select('id')
      .where({ company: toStr(bulk.company), end_to_end_id: endToEndId, bulk_id: bulkId })
      .first();
    return row === undefined ? undefined : toStr(row.id);
  }

  /**
   * Whether every payment of the bulk is in `state` with no bank messages stored (one read, no payment
   * built): a poll that reports exactly that for each payment has nothing to write. The read stops
   * at the first payment that differs, so a poll that moves the bulk pays for one row, not a count.
   */
  async bulkAllAtWithoutMessages(bulkId: string, state: PaymentState): Promise<boolean> {
    const differing = await this.db
      .knex<Row>('payments')
      .select('id')
      .where({ bulk_id: bulkId })
      .andWhere(
        (q) =>
          void q
            .whereNot({ state })
            .orWhere((m) => void m.whereNotNull('tpp_messages').whereNot({ tpp_messages: '[]' })),
      )
      .first();
    return differing === undefined;
  }

  async findByEndToEndId(company: string, endToEndId: string): Promise<StoredPayment | undefined> {
    const row = await this.db.knex<Row>('payments').where({ company, end_to_end_id: endToEndId }).first();
    return row ? toStoredPayment(row) : undefined;
  }

  /** Payments in any of `states`, oldest first (e.g. everything not yet terminal, for status polling). */
  async listByState(states: readonly PaymentState[], company?: string): Promise<StoredPayment[]> {
    const q = this.db.knex<Row>('payments').whereIn('state', [...states]);
    if (company !== undefined) void q.where({ company });
    return (await q.orderBy('id')).map(toStoredPayment);
  }

  /**
   * A company's payments in any of `states` and in a bulk, with an execution date in [from, to],
   * oldest first: reconciliation's period. Read through payments_company_execution_ix, so the
   * cost is that of the period's payments, not of the years of history the table holds.
   */
  async listInBulksExecutedBetween(
    company: string,
    states: readonly PaymentState[],
    period: { from: LocalDate; to: LocalDate },
  ): Promise<StoredPayment[]> {
    const rows = await this.db
      .knex<Row>('payments')
      .where({ company })
      .whereBetween('execution_date', [period.from, period.to])
      .whereIn('state', [...states])
      .whereNotNull('bulk_id')
      .orderBy('id');
    return rows.map(toStoredPayment);
  }

  /**
   * Applies one bank status ("acsc", "ACSC", …) to a set of payments at once (one UPDATE, one INSERT
   * of transition rows): the payments named, or every payment of one bulk. Duplicates and older
   * statuses change nothing; a status no order of events explains for a payment is refused for that
   * payment and reported.
   */
  async applyBankStatus(
    payments: readonly string[] | { bulkId: string },
    update: BankStatusUpdate,
  ): Promise<TransitionResult> {
    const { status, cause, source, tppMessages } = update;
    const canonical = canonicalBankStatus(status);
    if (canonical === undefined) {
      throw new SettleError('ERR_STATE_UNKNOWN_STATUS', `"${status}" is not a known bank transaction status.`, {
        details: { status },
      });
    }
    const at = this.clock.now();
    const set: Row = tppMessages === undefined ? {} : { tpp_messages: JSON.stringify(tppMessages) };
    return this.db.transaction((trx) =>
      transition(trx, {
        kind: 'payment',
        ids: payments,
        to: canonical,
        cause,
        source,
        at,
        set,
        mode: 'tolerant',
        bankReported: true,
      }),
    );
  }

  /** A move of our own (e.g. accepted → CANC by an operator); illegal moves throw. */
  async setState(
    paymentIds: readonly string[],
    to: PaymentState,
    cause: CauseInput,
    source: TransitionSource,
  ): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction((trx) => transition(trx, { kind: 'payment', ids: paymentIds, to, cause, source, at }));
  }
}

/**
 * The rows of a read of many payments as arrays of the selected columns, in their order (query option
 * `rowsAsArray`: mysql2's, and ImmediateSqliteClient's on SQLite): no object a row.
 */
async function arrays(query: Knex.QueryBuilder): Promise<unknown[][]> {
  return (await query.options({ rowsAsArray: true })) as unknown[][];
}

export function toStoredPayment(r: Row): StoredPayment {
  const creditorBic = toOptStr(r.creditor_bic);
  const remittanceInformation = toOptStr(r.remittance);
  const creditorReference = toOptStr(r.creditor_reference);
  const instructionPriority = toOptStr(r.priority) as InstructionPriority | undefined;
  const batchBooking = toOptBool(r.batch_booking);
  const categoryPurpose = toOptStr(r.category_purpose);
  const ultimateDebtor = toOptStr(r.ultimate_debtor);
  const ultimateCreditor = toOptStr(r.ultimate_creditor);
  const purpose = toOptStr(r.purpose);
  const instructionId = toOptStr(r.instruction_id);
  const creditorOrgId = toOptStr(r.creditor_org_id);
  const creditorOrgScheme = toOptStr(r.creditor_org_scheme);
  const creditorId = toOptStr(r.creditor_id);
  const paymentInformationId = toOptStr(r.payment_information_id);
  const bulkId = toOptStr(r.bulk_id);
  const bankStatus = toOptStr(r.bank_status);
  return {
    id: toStr(r.id),
    fileId: toStr(r.file_id),
    company: toStr(r.company),
    lineNumber: toInt(r.line_number),
    endToEndId: toStr(r.end_to_end_id),
    debtorIban: toStr(r.debtor_iban),
    debtorName: toStr(r.debtor_name),
    requestedExecutionDate: toLocalDate(r.execution_date),
    amount: { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) },
    creditorIban: toStr(r.creditor_iban),
    creditorName: toStr(r.creditor_name),
    ...(creditorBic === undefined ? {} : { creditorBic }),
    ...(remittanceInformation === undefined ? {} : { remittanceInformation }),
    ...(creditorReference === undefined ? {} : { creditorReference }),
    ...(instructionPriority === undefined ? {} : { instructionPriority }),
    ...(batchBooking === undefined ? {} : { batchBooking }),
    ...(categoryPurpose === undefined ? {} : { categoryPurpose }),
    ...(ultimateDebtor === undefined ? {} : { ultimateDebtor }),
    ...(ultimateCreditor === undefined ? {} : { ultimateCreditor }),
    ...(purpose === undefined ? {} : { purpose }),
    ...(instructionId === undefined ? {} : { instructionId }),
    ...(creditorOrgId === undefined ? {} : { creditorOrgId }),
    ...(creditorOrgScheme === undefined ? {} : { creditorOrgScheme }),
    ...(creditorId === undefined ? {} : { creditorId }),
    ...(paymentInformationId === undefined ? {} : { paymentInformationId }),
    state: toStr(r.state) as PaymentState,
    ...(bulkId === undefined ? {} : { bulkId }),
    ...(bankStatus === undefined ? {} : { bankStatus }),
    tppMessages: tppOf(r),
  };
}

function tppOf(r: Row): TppMessage[] {
  const tpp = toOptStr(r.tpp_messages);
  return tpp === undefined ? [] : (JSON.parse(tpp) as TppMessage[]);
}
