// The facts the hold rule of pickup (src/domain/controls/pickup-holds.ts) decides on, read inside
// the file's transaction: the company's earlier payments to a batch's creditors, the lines of the
// file already stored (with the fields of their likely-duplicate keys), and what the payment
// controls compare a file with (the company's payments grouped by creditor account, name,
// organisation number and ERP creditor id; what each debtor account already sends per currency
// on the days from today on). Reads only: which line they
// hold is the rule's (docs/architecture.md, "Plans").
import type { Knex } from 'knex';
import type { DayTotal, EarlierPayment, PaidCreditor, PickupFacts, StoredLine } from '../domain/hold.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { toStoredPayment } from './payments.js';
import { chunks, instant, toBigInt, toDate, toInt, toOptStr, toStr, type Row } from './rows.js';

/** Held, rejected and cancelled lines are no history for the controls: they were not paid. */
const NOT_PAID = ['RJCT', 'CANC', 'held'];

/** A company's facts, read through `knex` (a file's transaction, or the database for a dry check). */
export class StorePickupFacts implements PickupFacts {
  constructor(
    private readonly knex: Knex | Knex.Transaction,
    private readonly company: string,
    /** The file being received: its own lines are no earlier payment (its earlier batches are stored). */
    private readonly fileId?: string,
  ) {}

  async earlierPayments(creditorIbans: readonly string[], since: Date): Promise<EarlierPayment[]> {
    const earlier: EarlierPayment[] = [];
    for (const part of chunks([...creditorIbans])) {
      const query = this.knex<Row>('payments as p')
        .join('payment_files as f', 'f.id', 'p.file_id')
        .select('p.*', 'f.file_name', 'f.received_at')
        .where('p.company', this.company)
        .whereIn('p.creditor_iban', part)
        .where('p.created_at', '>=', instant(since))
        .whereNotIn('p.state', ['RJCT', 'CANC'])
        .orderBy('p.created_at')
        .orderBy('p.line_number');
      if (this.fileId !== undefined) void query.whereNot('p.file_id', this.fileId);
      for (const row of (await query) as Row[]) {
        const p = toStoredPayment(row);
        earlier.push({
          id: p.id,
          lineNumber: toInt(row.line_number),
          endToEndId: toStr(row.end_to_end_id),
          fileName: toStr(row.file_name),
          receivedAt: toDate(row.received_at),
          creditorIban: p.creditorIban,
          amount: p.amount,
          creditorReference: p.creditorReference,
          remittanceInformation: p.remittanceInformation,
        });
      }
    }
    return earlier;
  }

  async storedLines(lineNumbers: readonly number[]): Promise<Map<number, StoredLine>> {
    const stored = new Map<number, StoredLine>();
    if (this.fileId === undefined) return stored;
    for (const part of chunks([...lineNumbers])) {
      const rows = await this.knex<Row>('payments')
        .select('id', 'end_to_end_id', 'line_number', 'creditor_iban', 'amount_minor', 'currency')
        .select('creditor_reference', 'remittance')
        .where({ file_id: this.fileId })
        .whereIn('line_number', part);
      for (const r of rows) {
        const creditorReference = toOptStr(r.creditor_reference);
        const remittanceInformation = toOptStr(r.remittance);
        stored.set(toInt(r.line_number), {
          id: toStr(r.id),
          endToEndId: toStr(r.end_to_end_id),
          creditorIban: toStr(r.creditor_iban),
          amount: { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) },
          ...(creditorReference === undefined ? {} : { creditorReference }),
          ...(remittanceInformation === undefined ? {} : { remittanceInformation }),
        });
      }
    }
    return stored;
  }

  async controlHistory(today: LocalDate): Promise<{ paid: PaidCreditor[]; days: DayTotal[] }> {
    const { knex, company } = this;
    const paid: Row[] = await knex('payments')
      .select('creditor_iban', 'creditor_name', 'creditor_org_id', 'creditor_id')
      .count({ n: '*' })
      .min({ first: 'created_at' })
      .where({ company })
      .whereNotIn('state', NOT_PAID)
      .groupBy('creditor_iban', 'creditor_name', 'creditor_org_id', 'creditor_id');
    const days: Row[] = await knex('payments')
      .select('debtor_iban', 'currency', 'execution_date')
      .sum({ total: 'amount_minor' })
      .where({ company })
      .where('execution_date', '>=', today)
      .whereNotIn('state', NOT_PAID)
      .groupBy('debtor_iban', 'currency', 'execution_date');
    return {
      paid: paid.map((r) => ({
        account: toStr(r.creditor_iban),
        name: toStr(r.creditor_name),
        orgId: toOptStr(r.creditor_org_id),
        creditorId: toOptStr(r.creditor_id),
        count: toInt(Number(r.n)),
        first: toStr(r.first).slice(0, 10),
      })),
      days: days.map((r) => ({
        debtorIban: toStr(r.debtor_iban),
        currency: toStr(r.currency),
        day: toStr(r.execution_date).slice(0, 10),
        total: toBigInt(r.total),
      })),
    };
  }
}

/** A company's facts read outside any file's transaction: what `settle controls test` checks a file with. */
export function pickupFacts(db: Database, company: string): PickupFacts {
  return new StorePickupFacts(db.knex, company);
}
