// The ERP's answers to its camt.055 requests that the bank had not decided at once: the first
// camt.029 said PDCR (pending), and a final one is owed once the request ends (docs/cancellation.md,
// "Pending at the bank"). Rows are the `cancellations` rows of channel camt055 (migration 0401).
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toOptStr, toStr, type Row } from './rows.js';

/** What the final camt.029 needs from the camt.055 it answers. */
export interface PendingErpAnswer {
  /** The camt.055 file's name: the final answer is named after it. */
  file: string;
  /** The camt.029 version that answers the camt.055 ('001.03' or '001.09'). */
  version: string;
  instructionId?: string;
}

/** A request whose pending answer went out and which has ended: its final answer is due. */
export interface DueErpAnswer extends PendingErpAnswer {
  requestId: string;
  company: string;
  /** The end-to-end id the camt.055 named. */
  endToEndId: string;
  erpMessageId: string;
  erpCaseId?: string;
  outcome: string;
  outcomeAt: Date;
  outcomeDetail?: string;
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

  /** The company's requests answered PDCR that have ended since and have no final answer yet. */
  async due(company: string): Promise<DueErpAnswer[]> {
    const rows = await this.db
      .knex<Row>('cancellations')
      .where({ company, channel: 'camt055' })
      .whereNotNull('erp_pending_at')
      .whereNotNull('outcome')
      .whereNull('erp_final_at')
      .orderBy('outcome_at')
      .orderBy('id');
    return rows.map((r) => {
      const instructionId = toOptStr(r.erp_instruction_id);
      const caseId = toOptStr(r.erp_case_id);
      const detail = toOptStr(r.outcome_detail);
      return {
        requestId: toStr(r.id),
        company: toStr(r.company),
        endToEndId: toStr(r.ref),
        erpMessageId: toStr(r.erp_message_id),
        ...(caseId === undefined ? {} : { erpCaseId: caseId }),
        file: toStr(r.erp_file),
        version: toStr(r.erp_answer_version),
        ...(instructionId === undefined ? {} : { instructionId }),
        outcome: toStr(r.outcome),
        outcomeAt: new Date(toStr(r.outcome_at)),
        ...(detail === undefined ? {} : { outcomeDetail: detail }),
      };
    });
  }

  /** The final answer was written to the status folder: never again. */
  async markFinal(requestId: string): Promise<void> {
    await this.db
      .knex('cancellations')
      .where({ id: requestId })
      .update({ erp_final_at: instant(this.clock.now()) });
  }
}
