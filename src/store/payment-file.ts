// A payment file's record in the ledger: what is known of a file (its bytes' hash, its reader,
// its counts and totals) and its row in payment_files, written and read back the one way.
import type { Knex } from 'knex';
import type { FileState } from '../domain/states.js';
import { instant, toDate, toInt, toJson, toOptStr, toStr, type Row } from './rows.js';

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

/**
 * Inserts a file record: the first of its bytes, or the next attempt after a rejected record,
 * which is marked superseded in the same transaction. An accepted record, or a rejected one a
 * concurrent pickup superseded first, is never superseded: the unique (company, sha256, attempt)
 * refuses the row, and the caller reports ERR_DB_FILE_DUPLICATE (money moves exactly once).
 */
export async function insertFile(trx: Knex.Transaction, row: Row, supersedes: StoredFile | undefined): Promise<void> {
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

export function fileRow(id: string, file: NewPaymentFile, state: FileState, now: Date, extra: Row): Row {
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
