// The file ledger (architecture §2.1): a picked-up file is known by the SHA-256 of its bytes,
// and its accepted payments are stored in the same transaction as the file record. Only after
// that commit does pickup move the file to archive/.
// The file's record and its row are in payment-file.ts, the receiving of its payments in
// file-receiver.ts.
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { PickupHoldRule } from '../domain/hold.js';
import type { PaymentInstruction } from '../domain/payment.js';
import type { FileState } from '../domain/states.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import { chunks, isUniqueViolation, toStr, type Row } from './rows.js';
import { recordCreation, transition, type TransitionSource } from './transitions.js';
import { fileRow, insertFile, toStoredFile, type NewPaymentFile, type StoredFile } from './payment-file.js';
import {
  Receiver,
  RECEIVE_BATCH,
  type ReceivedHeldPayment,
  type ReceivedOutcome,
  type ReceivingFile,
} from './file-receiver.js';
import { cause as causes, type CauseInput } from '../domain/transition-cause.js';

// Where callers have always found them.
export { RECEIVE_BATCH, toStoredFile };
export type { ReceivedHeldPayment, NewPaymentFile, ReceivedOutcome, ReceivingFile, StoredFile };

/** How a file is received: the rule of which payments are held, and the rejected record a re-drop supersedes. */
export interface ReceiveOptions {
  /**
   * Which payments are stored held for a person, and why (likely duplicates, the payment controls:
   * src/domain/controls/pickup-holds.ts, made by pickup). Without it, every payment is accepted.
   */
  holds?: PickupHoldRule;
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
   * ERR_DB_END_TO_END_ID_TAKEN when an end-to-end id is already used by the company. The payments
   * `options.holds` holds are stored held (src/store/held-payments.ts), in the same transaction,
   * and returned in `holds`.
   */
  async recordAcceptedFile(
    file: NewPaymentFile,
    payments: readonly PaymentInstruction[],
    rejectedCount = 0,
    options: ReceiveOptions = {},
  ): Promise<StoredFile & { holds: ReceivedHeldPayment[] }> {
    const received = await this.receiveFile(file, options, async (sink) => {
      for (const p of payments) await sink.add(p);
      return { keep: true, rejectedCount };
    });
    return received.stored!;
  }

  /**
   * Stores a file's payments as `fill` produces them, in batches of `RECEIVE_BATCH` lines, all in
   * one transaction with the file record: a file of a million lines is never kept in memory,
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
  ): Promise<{ filled: T; stored?: StoredFile & { holds: ReceivedHeldPayment[] } }> {
    const now = this.clock.now();
    const id = newId(this.clock);
    let outcome: { filled: T; stored?: StoredFile & { holds: ReceivedHeldPayment[] } } | undefined;
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
          // A fresh rule each attempt: a deadlock victim runs `fill` again from scratch.
          ...(options.holds ? { holds: options.holds.forFile(now) } : {}),
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
          cause: causes.pickup(file.fileName),
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
        const cause = causes.pickup(file.fileName);
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

  async setFileState(id: string, to: FileState, cause: CauseInput, source: TransitionSource): Promise<void> {
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

function duplicatesWithin(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}

/** Thrown inside the transaction to roll a file back that is not to be kept (caught by receiveFile). */
class NotKept extends Error {
  constructor(readonly filled: unknown) {
    super('the file is not kept');
  }
}
