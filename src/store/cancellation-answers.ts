// The ERP's answers to its camt.055 requests that the bank had not decided at once: the first
// camt.029 said PDCR (pending), and a final one is owed once the request ends (docs/cancellation.md,
// "Pending at the bank"). Rows are the `cancellations` rows of channel camt055 (migration 0401).
import type { Clock } from '../domain/clock.js';
import { toCancellation, type StoredCancellation } from './cancellations.js';
import type { Database } from './database.js';
import { instant, throughIndex, type Row } from './rows.js';

/** What the final camt.029 needs from the camt.055 it answers. */
export interface PendingErpAnswer {
  /** The camt.055 file's name: the final answer is named after it. */
  file: string;
  /** The camt.029 version that answers the camt.055 ('001.03' or '001.09'). */
  version: string;
  instructionId?: string;
}

export class CancellationAnswerRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The ERP was answered PDCR for this request: a final answer is owed once it ends. */
  async markPending(requestId: string, answer: PendingErpAnswer): Promise<void> {
    await this.db
      .knex('cancellations')
      .where({ id: requestId })
      .whereNull('erp_pending_at')
      .update({
        erp_file: answer.file.slice(0, 255),
        erp_answer_version: answer.version,
        erp_instruction_id: answer.instructionId?.slice(0, 35) ?? null,
        erp_pending_at: instant(this.clock.now()),
      });
  }

  /**
   * The company's requests answered PDCR that have ended since and have no final answer yet: read
   * through the requests still owed one (migration 0570), not every request the company ended.
   */
  async due(company: string): Promise<StoredCancellation[]> {
    const rows = await this.db.knex
      .from<Row>(throughIndex(this.db.knex, 'cancellations', 'cancellations_company_owed_ix'))
      .where({ company, channel: 'camt055' })
      .whereNotNull('erp_pending_at')
      .whereNotNull('outcome')
      .whereNull('erp_final_at')
      .orderBy('outcome_at')
      .orderBy('id');
    return rows.map(toCancellation);
  }

  /** The final answer was written to the status folder: never again. */
  async markFinal(requestId: string): Promise<void> {
    await this.db
      .knex('cancellations')
      .where({ id: requestId })
      .update({ erp_final_at: instant(this.clock.now()) });
  }
}
