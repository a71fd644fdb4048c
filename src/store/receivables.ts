// Open receivables of each company, imported from the ERP's files. A file is imported once
// (known by its SHA-256) in one transaction with its receivables; a receivable is known by its
// invoice number, so a later file with the same invoice updates it rather than adding another.
// Each file lists every open item, so an invoice a later file no longer lists is closed (kept,
// with when and by which file), and one listed again is open again.
import type { Clock } from '../domain/clock.js';
import type { ReceivableLine } from '../domain/reconcile/index.js';
import type { Database } from './database.js';
import {
  amountParam,
  chunks,
  instant,
  throughIndex,
  toBigInt,
  toDate,
  toInt,
  toLocalDate,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';

export type { ReceivableLine };

/**
 * (company, closed_at), migration 0540. Named in the reads: MariaDB's statistics cannot tell that
 * the open receivables are few among the closed, and would read the company's every receivable.
 */
const CLOSED_INDEX = 'receivables_company_closed_ix';

export interface StoredReceivable extends ReceivableLine {
  company: string;
  fileSha256: string;
  /** When a later file no longer listed it: paid or withdrawn in the ERP. */
  closedAt?: Date;
}

export interface ReceivableFile {
  company: string;
  sha256: string;
  fileName: string;
}

export class ReceivableRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The imported file with these bytes, if any. */
  async findFile(company: string, sha256: string): Promise<{ fileName: string; receivedAt: Date } | undefined> {
    const row = await this.db.knex<Row>('receivable_files').where({ company, sha256 }).first();
    return row ? { fileName: toStr(row.file_name), receivedAt: toDate(row.received_at) } : undefined;
  }

  /**
   * Records the file and its receivables in one transaction: new invoices are added, known ones
   * updated (and open again if they were closed), and open ones this file does not list are
   * closed. A file already imported changes nothing (false).
   */
  async importFile(file: ReceivableFile, lines: readonly ReceivableLine[]): Promise<boolean> {
    const at = instant(this.clock.now());
    return this.db.transaction(async (trx) => {
      if (await trx('receivable_files').where({ company: file.company, sha256: file.sha256 }).first()) return false;
      await trx('receivable_files').insert({
        company: file.company,
        sha256: file.sha256,
        file_name: file.fileName.slice(0, 255),
        receivables: lines.length,
        received_at: at,
      });
      for (const r of lines) {
        const fields = {
          customer: r.customer,
          amount_minor: amountParam(r.amount.minor),
          currency: r.amount.currency,
          reference: r.reference ?? null,
          due_date: r.dueDate,
          file_sha256: file.sha256,
          line: r.line,
          updated_at: at,
          closed_at: null,
          closed_by_file: null,
        };
        const updated = await trx('receivables').where({ company: file.company, invoice: r.invoice }).update(fields);
        if (updated === 0)
          await trx('receivables').insert({ company: file.company, invoice: r.invoice, ...fields, created_at: at });
      }
      // Every line of this file now carries its sha256: the open ones that do not were left out.
      // Found through (company, closed_at) and closed by key, so the years of receivables the
      // ERP closed before are neither read nor locked.
      const left = (await trx
        .from<Row>(throughIndex(trx, 'receivables', CLOSED_INDEX))
        .select('invoice')
        .where({ company: file.company })
        .whereNull('closed_at')
        .whereNot({ file_sha256: file.sha256 })) as Row[];
      for (const part of chunks(left.map((r) => toStr(r.invoice))))
        await trx('receivables')
          .where({ company: file.company })
          .whereIn('invoice', part)
          .update({ closed_at: at, closed_by_file: file.sha256, updated_at: at });
      return true;
    });
  }

  /**
   * The company's receivables a credit may still pay: the open ones and those closed at or after
   * `closedSince` (a credit booked after its receivable closed does not pay it), by due date then
   * invoice. Read through (company, closed_at), so the receivables the ERP closed years ago are
   * not read every night. Without `closedSince`, every receivable the company ever had.
   */
  async list(company: string, closedSince?: Date): Promise<StoredReceivable[]> {
    const query =
      closedSince === undefined
        ? this.db.knex<Row>('receivables').where({ company })
        : this.db.knex
            .from<Row>(throughIndex(this.db.knex, 'receivables', CLOSED_INDEX))
            .where({ company })
            .where((q) => void q.whereNull('closed_at').orWhere('closed_at', '>=', instant(closedSince)));
    const rows: Row[] = await query.orderBy([
      { column: 'due_date', order: 'asc' },
      { column: 'invoice', order: 'asc' },
    ]);
    return rows.map((r) => {
      const reference = toOptStr(r.reference);
      const closedAt = toOptStr(r.closed_at);
      return {
        company: toStr(r.company),
        invoice: toStr(r.invoice),
        customer: toStr(r.customer),
        amount: { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) },
        ...(reference ? { reference } : {}),
        dueDate: toLocalDate(r.due_date),
        line: toInt(r.line),
        fileSha256: toStr(r.file_sha256),
        ...(closedAt ? { closedAt: toDate(closedAt) } : {}),
      };
    });
  }
}
