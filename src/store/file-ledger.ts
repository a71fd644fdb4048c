// The file ledger (architecture §2.1): a picked-up file is known by the SHA-256 of its bytes,
// and its accepted payments are stored in the same transaction as the file record. Only after
// that commit does pickup move the file to archive/.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { PaymentInstruction } from '../domain/payment.js';
import type { FileState } from '../domain/states.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import {
  amountParam,
  chunks,
  instant,
  isUniqueViolation,
  toDate,
  toInt,
  toJson,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';
import { recordCreation, transition, type TransitionSource } from './transitions.js';
import { countRows } from './state-counts.js';
import { FileControlHolds, type ControlSetup } from './control-history.js';
import { heldReasonCodes, holdMessages } from '../domain/controls/index.js';
import { EarlierPayments, heldRows, SameFileLines, sameFileHold, type HoldInput } from './held-payments.js';

export interface NewPaymentFile {
  company: string;
  fileName: string;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Reader that accepted it, e.g. "pain.001.001.03" or "csv:visma". */
  format: string;
  sizeBytes: number;
  receivedAt: Date;
  /** Where it was picked up (folder path or SFTP URL without credentials). */
  source?: string;
  /** pain.001 GrpHdr/MsgId, quoted back in pain.002 as OrgnlMsgId. */
  messageId?: string;
  /** Who dropped it: the file's owner as the inbox reports it (the SFTP account), when known. */
  droppedBy?: string;
}

export interface StoredFile extends NewPaymentFile {
  id: string;
  state: FileState;
  lineCount: number;
  acceptedCount: number;
  rejectedCount: number;
  /** Minor units per currency, as decimal strings (JSON has no bigint). */
  totals: Record<string, string>;
  errorSummary?: string;
  /** The rejected record of the same bytes that this re-drop was validated in place of. */
  supersedes?: string;
  /** The later record of a re-drop that was validated in place of this rejected one. */
  supersededBy?: string;
}

/** How a file is received: held-duplicate window, and the rejected record a re-drop supersedes. */
export interface ReceiveOptions {
  holdDuplicatesSince?: Date;
  /** The company's payment controls (docs/controls.md): lines a rule matches are stored held. */
  controls?: ControlSetup;
  /**
   * The company's latest record of these bytes, when it was rejected: the re-drop is validated
   * anew and its record supersedes that one (which stays in history). Without it, bytes the
   * company already has are refused with ERR_DB_FILE_DUPLICATE.
   */
  supersedes?: StoredFile;
}

export class FileLedger {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Stores an accepted file and all its payments in one transaction. Throws
   * ERR_DB_FILE_DUPLICATE when the company already has a file with this hash, and
   * ERR_DB_END_TO_END_ID_TAKEN when an end-to-end id is already used by the company. With
   * `holdDuplicatesSince`, lines that match a payment accepted since then from another file are
   * stored held (src/store/held-payments.ts), in the same transaction, and returned in `holds`.
   */
  async recordAcceptedFile(
    file: NewPaymentFile,
    payments: readonly PaymentInstruction[],
    rejectedCount = 0,
    options: ReceiveOptions = {},
  ): Promise<StoredFile & { holds: HeldLine[] }> {
    const received = await this.receiveFile(file, options, async (sink) => {
      for (const p of payments) await sink.add(p);
      return { keep: true, rejectedCount };
    });
    return received.stored!;
  }

  /**
   * Stores a file's payments as `fill` produces them, in batches of `RECEIVE_BATCH` lines, all in
   * one transaction with the file record: a file of a million lines is never held in memory,
   * and still either all of it is stored or none (architecture §2.1). `fill` is the streaming
   * validation; it adds each valid payment to the sink, may ask the sink whether an end-to-end
   * id is already used (inside the same transaction: SQLite has one connection), and says at
   * the end whether the file is to be kept. When it is not, everything is rolled back and
   * `stored` is undefined. `fill` may run more than once (a deadlock victim on MariaDB is run
   * again), so it must start from scratch each time.
   */
  async receiveFile<T extends ReceivedOutcome>(
    file: NewPaymentFile,
    options: ReceiveOptions,
    fill: (sink: ReceivingFile) => Promise<T>,
  ): Promise<{ filled: T; stored?: StoredFile & { holds: HeldLine[] } }> {
    const now = this.clock.now();
    const id = newId(this.clock);
    let outcome: { filled: T; stored?: StoredFile & { holds: HeldLine[] } } | undefined;
    let sink: Receiver | undefined;
    try {
      await this.db.transaction(async (trx) => {
        // The file row first: every payment row refers to it.
        await insertFile(trx, fileRow(id, file, 'accepted', now, {}), options.supersedes);
        sink = new Receiver(trx, {
          fileId: id,
          company: file.company,
          now,
          newId: () => newId(this.clock),
          ...(options.holdDuplicatesSince ? { holdDuplicatesSince: options.holdDuplicatesSince } : {}),
          ...(options.controls ? { controls: new FileControlHolds(file.company, now, options.controls) } : {}),
        });
        const filled = await fill(sink);
        if (!filled.keep) throw new NotKept(filled);
        await sink.flush();
        const accepted = sink.accepted;
        const totals = Object.fromEntries([...sink.totals].map(([c, v]) => [c, v.toString()]));
        const record = filled.record ?? {};
        await trx('payment_files')
          .where({ id })
          .update({
            // Plain keys, no conditional spreads: the one-transition-path test reads the names.
            format: record.format ?? file.format,
            message_id: record.messageId ?? file.messageId ?? null,
            line_count: accepted + filled.rejectedCount,
            accepted_count: accepted,
            rejected_count: filled.rejectedCount,
            totals_json: JSON.stringify(totals),
          });
        await recordCreation(trx, {
          kind: 'payment_file',
          ids: [id],
          company: file.company,
          to: 'accepted',
          cause: `pickup ${file.fileName}`,
          source: 'pickup',
          at: now,
        });
        outcome = {
          filled,
          stored: {
            ...file,
            ...record,
            id,
            state: 'accepted',
            lineCount: accepted + filled.rejectedCount,
            acceptedCount: accepted,
            rejectedCount: filled.rejectedCount,
            totals,
            holds: sink.holds,
            ...(options.supersedes ? { supersedes: options.supersedes.id } : {}),
          },
        };
      });
    } catch (error) {
      if (error instanceof NotKept) return { filled: error.filled as T };
      throw await this.explainConflict(error, file, sink?.pendingIds() ?? []);
    }
    return outcome!;
  }

  /**
   * Records a file that failed validation (no payments stored), so a re-drop is recognised; with
   * `supersedes`, a re-drop of a rejected file that was rejected again.
   */
  async recordRejectedFile(
    file: NewPaymentFile,
    errorSummary: string,
    counts: { lineCount: number; rejectedCount: number },
    options: Pick<ReceiveOptions, 'supersedes'> = {},
  ): Promise<StoredFile> {
    const now = this.clock.now();
    const id = newId(this.clock);
    try {
      await this.db.transaction(async (trx) => {
        await insertFile(
          trx,
          fileRow(id, file, 'rejected', now, {
            line_count: counts.lineCount,
            rejected_count: counts.rejectedCount,
            error_summary: errorSummary,
          }),
          options.supersedes,
        );
        const cause = `pickup ${file.fileName}`;
        await recordCreation(trx, {
          kind: 'payment_file',
          ids: [id],
          company: file.company,
          to: 'rejected',
          cause,
          source: 'pickup',
          at: now,
        });
      });
    } catch (error) {
      throw await this.explainConflict(error, file, []);
    }
    return {
      ...file,
      id,
      state: 'rejected',
      lineCount: counts.lineCount,
      acceptedCount: 0,
      rejectedCount: counts.rejectedCount,
      totals: {},
      errorSummary,
      ...(options.supersedes ? { supersedes: options.supersedes.id } : {}),
    };
  }

  /** The company's latest record of these bytes (a rejected file dropped again has several). */
  async findFileBySha256(company: string, sha256: string): Promise<StoredFile | undefined> {
    const row = await this.db
      .knex<Row>('payment_files')
      .where({ company, sha256: sha256.toLowerCase() })
      .orderBy('attempt', 'desc')
      .first();
    return row ? toStoredFile(row) : undefined;
  }

  async getFile(id: string): Promise<StoredFile | undefined> {
    const row = await this.db.knex<Row>('payment_files').where({ id }).first();
    return row ? toStoredFile(row) : undefined;
  }

  /** The end-to-end ids among `ids` that the company has already used in accepted payments. */
  async knownEndToEndIds(company: string, ids: readonly string[]): Promise<Set<string>> {
    const known = new Set<string>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.db
        .knex<Row>('payments')
        .select('end_to_end_id')
        .where({ company })
        .whereIn('end_to_end_id', part);
      for (const r of rows) known.add(toStr(r.end_to_end_id));
    }
    return known;
  }

  /** True when any of `ids` is already used by the company. */
  async isEndToEndIdKnown(company: string, ids: readonly string[]): Promise<boolean> {
    return (await this.knownEndToEndIds(company, ids)).size > 0;
  }

  async setFileState(id: string, to: FileState, cause: string, source: TransitionSource): Promise<void> {
    const at = this.clock.now();
    await this.db.transaction((trx) => transition(trx, { kind: 'payment_file', ids: [id], to, cause, source, at }));
  }

  async listFiles(filter: { company?: string; state?: FileState } = {}): Promise<StoredFile[]> {
    const q = this.db.knex<Row>('payment_files').orderBy('id');
    if (filter.company !== undefined) void q.where({ company: filter.company });
    if (filter.state !== undefined) void q.where({ state: filter.state });
    return (await q).map(toStoredFile);
  }

  private async explainConflict(error: unknown, file: NewPaymentFile, ids: readonly string[]): Promise<unknown> {
    if (!isUniqueViolation(error)) return error;
    const existing = await this.findFileBySha256(file.company, file.sha256);
    if (existing) {
      return new SettleError(
        'ERR_DB_FILE_DUPLICATE',
        `${file.fileName} was already received as ${existing.fileName} (same SHA-256).`,
        {
          details: { fileId: existing.id, sha256: file.sha256 },
        },
      );
    }
    // The ids of the batch being inserted when the conflict arose (earlier batches went in).
    const taken = [...(await this.knownEndToEndIds(file.company, ids))];
    const inFile = duplicatesWithin(ids);
    return new SettleError(
      'ERR_DB_END_TO_END_ID_TAKEN',
      `${file.fileName} uses end-to-end ids that are not unique for ${file.company}: ${[...taken, ...inFile].slice(0, 5).join(', ')}.`,
      { details: { taken, duplicatedInFile: inFile } },
    );
  }
}

/**
 * Inserts a file record: the first of its bytes, or the next attempt after a rejected record,
 * which is marked superseded in the same transaction. An accepted record, or a rejected one a
 * concurrent pickup superseded first, is never superseded: the unique (company, sha256, attempt)
 * refuses the row, and the caller reports ERR_DB_FILE_DUPLICATE (money moves exactly once).
 */
async function insertFile(trx: Knex.Transaction, row: Row, supersedes: StoredFile | undefined): Promise<void> {
  if (supersedes === undefined) {
    await trx('payment_files').insert(row);
    return;
  }
  const earlier = await trx<Row>('payment_files').where({ id: supersedes.id }).first();
  const attempt = earlier ? toInt(earlier.attempt) : 1;
  // Same attempt again when it may not be superseded: the unique index turns it into a duplicate.
  const free = earlier !== undefined && toStr(earlier.state) === 'rejected' && earlier.superseded_by == null;
  await trx('payment_files').insert({ ...row, attempt: free ? attempt + 1 : attempt });
  await trx('payment_files').where({ id: supersedes.id }).update({ superseded_by: row.id });
}

function fileRow(id: string, file: NewPaymentFile, state: FileState, now: Date, extra: Row): Row {
  return {
    id,
    company: file.company,
    file_name: file.fileName,
    source: file.source ?? null,
    message_id: file.messageId ?? null,
    dropped_by: file.droppedBy ?? null,
    sha256: file.sha256.toLowerCase(),
    format: file.format,
    size_bytes: file.sizeBytes,
    received_at: instant(file.receivedAt),
    state,
    ...extra,
    created_at: instant(now),
    updated_at: instant(now),
  };
}

function paymentRow(
  { id, fileId, company }: { id: string; fileId: string; company: string },
  p: PaymentInstruction,
  now: Date,
  hold: HoldInput | undefined,
): Row {
  return {
    id,
    file_id: fileId,
    line_number: p.lineNumber,
    company,
    end_to_end_id: p.endToEndId,
    debtor_iban: p.debtorIban,
    debtor_name: p.debtorName,
    execution_date: p.requestedExecutionDate,
    amount_minor: amountParam(p.amount.minor),
    currency: p.amount.currency,
    creditor_iban: p.creditorIban,
    creditor_name: p.creditorName,
    creditor_bic: p.creditorBic ?? null,
    remittance: p.remittanceInformation ?? null,
    creditor_reference: p.creditorReference ?? null,
    priority: p.instructionPriority ?? null,
    category_purpose: p.categoryPurpose ?? null,
    ultimate_debtor: p.ultimateDebtor ?? null,
    ultimate_creditor: p.ultimateCreditor ?? null,
    purpose: p.purpose ?? null,
    instruction_id: p.instructionId ?? null,
    creditor_org_id: p.creditorOrgId ?? null,
    creditor_org_scheme: p.creditorOrgScheme ?? null,
    creditor_id: p.creditorId ?? null,
    batch_booking: p.batchBooking ?? null,
    payment_information_id: p.paymentInformationId ?? null,
    state: hold ? 'held' : 'accepted',
    // Shown to the ERP with the line in its status file while it waits for a person.
    ...(hold
      ? {
          tpp_messages: JSON.stringify(
            holdMessages(heldReasonCodes(hold.rules ?? ['duplicate']), hold.reason, hold.reasonText),
          ),
        }
      : {}),
    created_at: instant(now),
    updated_at: instant(now),
  };
}

function duplicatesWithin(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}

export function toStoredFile(r: Row): StoredFile {
  const errorSummary = toOptStr(r.error_summary);
  const source = toOptStr(r.source);
  const messageId = toOptStr(r.message_id);
  const supersededBy = toOptStr(r.superseded_by);
  const droppedBy = toOptStr(r.dropped_by);
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    fileName: toStr(r.file_name),
    ...(source === undefined ? {} : { source }),
    ...(messageId === undefined ? {} : { messageId }),
    ...(droppedBy === undefined ? {} : { droppedBy }),
    sha256: toStr(r.sha256),
    format: toStr(r.format),
    sizeBytes: toInt(r.size_bytes),
    receivedAt: toDate(r.received_at),
    state: toStr(r.state) as FileState,
    lineCount: toInt(r.line_count),
    acceptedCount: toInt(r.accepted_count),
    rejectedCount: toInt(r.rejected_count),
    totals: toJson<Record<string, string>>(r.totals_json) ?? {},
    ...(errorSummary === undefined ? {} : { errorSummary }),
    ...(supersededBy === undefined ? {} : { supersededBy }),
  };
}

/** Lines per batch while a file is received: bounded memory, and few enough round trips. */
export const RECEIVE_BATCH = 1000;

/** A line stored held, with its line number for the file's report. */
export interface HeldLine extends HoldInput {
  lineNumber: number;
}

/** What `receiveFile`'s `fill` says at the end: keep the file or roll it back, and what it learnt. */
export interface ReceivedOutcome {
  keep: boolean;
  rejectedCount: number;
  /** Known only once the file was read: the reader's format and the pain.001 message id. */
  record?: Partial<Pick<NewPaymentFile, 'format' | 'messageId'>>;
}

/** What `receiveFile`'s `fill` adds payments to. */
export interface ReceivingFile {
  add(payment: PaymentInstruction): Promise<void>;
  /** The ids among `ids` the company already used (asked inside the file's transaction). */
  knownEndToEndIds(ids: readonly string[]): Promise<ReadonlySet<string>>;
}

/** Thrown inside the transaction to roll a file back that is not to be kept (caught by receiveFile). */
class NotKept extends Error {
  constructor(readonly filled: unknown) {
    super('the file is not kept');
  }
}

/** Buffers a file's payments and inserts them a batch at a time inside the file's transaction. */
class Receiver implements ReceivingFile {
  accepted = 0;
  readonly totals = new Map<string, bigint>();
  readonly holds: HeldLine[] = [];
  private batch: PaymentInstruction[] = [];
  private readonly earlier: EarlierPayments | undefined;
  private readonly sameFile: SameFileLines | undefined;

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly at: {
      fileId: string;
      company: string;
      now: Date;
      newId: () => string;
      holdDuplicatesSince?: Date;
      controls?: FileControlHolds;
    },
  ) {
    // Matched against other files through the table (this file's earlier batches are in it too,
    // so it is left out there), and against this file's own earlier lines as they come.
    const since = at.holdDuplicatesSince;
    this.earlier = since ? new EarlierPayments(at.company, since, at.fileId) : undefined;
    this.sameFile = since ? new SameFileLines() : undefined;
  }

  async add(payment: PaymentInstruction): Promise<void> {
    this.batch.push(payment);
    if (this.batch.length >= RECEIVE_BATCH) await this.flush();
  }

  async knownEndToEndIds(ids: readonly string[]): Promise<ReadonlySet<string>> {
    const known = new Set<string>();
    for (const part of chunks([...new Set(ids)])) {
      const rows = await this.trx<Row>('payments')
        .select('end_to_end_id')
        .where({ company: this.at.company })
        .whereIn('end_to_end_id', part);
      for (const r of rows) known.add(toStr(r.end_to_end_id));
    }
    return known;
  }

  pendingIds(): string[] {
    return this.batch.map((p) => p.endToEndId);
  }

  async flush(): Promise<void> {
    const payments = this.batch;
    if (payments.length === 0) return;
    const { trx, at } = this;
    const ids = payments.map(() => at.newId());
    const holds = await this.holdsOf(payments, ids);
    const held = new Map(holds.map((h) => [h.endToEndId, h]));
    const rows = payments.map((p, i) =>
      paymentRow({ id: ids[i]!, fileId: at.fileId, company: at.company }, p, at.now, held.get(p.endToEndId)),
    );
    for (const part of chunks(rows, 40)) await trx('payments').insert(part);
    // Tallied here, one counter difference per state of the batch: countRows builds a key per call.
    const byState = new Map<string, number>();
    for (const row of rows) byState.set(row.state as string, (byState.get(row.state as string) ?? 0) + 1);
    for (const [state, n] of byState) countRows(trx, 'payment', at.company, state, n);
    const idOf = new Map(rows.map((r) => [r.end_to_end_id as string, r.id as string]));
    const holdRows = heldRows(holds, idOf, at.company, at.newId, at.now);
    for (const part of chunks(holdRows, 40)) await trx('held_payments').insert(part);
    const lines = new Map(payments.map((p) => [p.endToEndId, p.lineNumber]));
    for (const h of holds) this.holds.push({ ...h, lineNumber: lines.get(h.endToEndId) ?? 0 });
    for (const p of payments)
      this.totals.set(p.amount.currency, (this.totals.get(p.amount.currency) ?? 0n) + p.amount.minor);
    this.accepted += payments.length;
    this.batch = [];
  }

  /**
   * The batch's holds: a line like a payment of another file is held as its duplicate; else a
   * line like an earlier line of this file (in this batch, or in one already inserted) is held
   * as a duplicate of that line, so that a file listing one invoice twice pays it once.
   */
  private async holdsOf(payments: readonly PaymentInstruction[], ids: readonly string[]): Promise<HoldInput[]> {
    const duplicates = await this.duplicatesOf(payments, ids);
    return this.at.controls ? this.at.controls.holds(this.trx, payments, ids, duplicates) : duplicates;
  }

  private async duplicatesOf(payments: readonly PaymentInstruction[], ids: readonly string[]): Promise<HoldInput[]> {
    if (!this.earlier || !this.sameFile) return [];
    await this.earlier.load(this.trx, payments);
    const holds = this.earlier.holds(payments);
    const repeats = this.sameFile.repeats(payments);
    if (repeats.length === 0) return holds;
    const heldAlready = new Set(holds.map((h) => h.endToEndId));
    const inBatch = new Map(payments.map((p, i) => [p.lineNumber, { id: ids[i]!, endToEndId: p.endToEndId }]));
    const earlierLines = repeats.map((r) => r.firstLine).filter((line) => !inBatch.has(line));
    const inserted = new Map<number, { id: string; endToEndId: string }>();
    for (const part of chunks([...new Set(earlierLines)])) {
      const rows = await this.trx<Row>('payments')
        .select('id', 'end_to_end_id', 'line_number')
        .where({ file_id: this.at.fileId })
        .whereIn('line_number', part);
      for (const r of rows) inserted.set(toInt(r.line_number), { id: toStr(r.id), endToEndId: toStr(r.end_to_end_id) });
    }
    for (const repeat of repeats) {
      const first = inBatch.get(repeat.firstLine) ?? inserted.get(repeat.firstLine);
      if (first && !heldAlready.has(repeat.payment.endToEndId)) holds.push(sameFileHold(repeat, first));
    }
    // In file order, as the file's report lists them.
    const order = new Map(payments.map((p, i) => [p.endToEndId, i]));
    return holds.sort((a, b) => order.get(a.endToEndId)! - order.get(b.endToEndId)!);
  }
}
