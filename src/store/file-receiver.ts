// Receiving a file's payments (architecture §2.1, docs/decisions/0014): the payments of a file
// being picked up are buffered and inserted a batch at a time inside the file's transaction,
// each line stored held or accepted as the hold rule pickup hands in decides (likely duplicates,
// payment controls: src/domain/controls/pickup-holds.ts), from the facts it reads here.
// The ledger (file-ledger.ts) opens and ends the transaction; this is what fills it.
import type { Knex } from 'knex';
import type { PaymentInstruction } from '../domain/payment.js';
import { foldForSearch } from '../domain/search-fold.js';
import { amountParam, chunks, instant, toStr, type Row } from './rows.js';
import { countRows } from './state-counts.js';
import type { DecidedHold, FileHoldRule, HoldInput } from '../domain/hold.js';
import { heldRows } from './held-payments.js';
import type { NewPaymentFile } from './payment-file.js';
import { StorePickupFacts } from './pickup-facts.js';

/** Lines per batch while a file is received: bounded memory, and few enough round trips. */
export const RECEIVE_BATCH = 1000;

/** A line stored held, with its line number for the file's report. */
export interface ReceivedHeldPayment extends HoldInput {
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

/** Buffers a file's payments and inserts them a batch at a time inside the file's transaction. */
export class Receiver implements ReceivingFile {
  accepted = 0;
  readonly totals = new Map<string, bigint>();
  readonly holds: ReceivedHeldPayment[] = [];
  private batch: PaymentInstruction[] = [];
  private readonly facts: StorePickupFacts;

  constructor(
    private readonly trx: Knex.Transaction,
    private readonly at: {
      fileId: string;
      company: string;
      now: Date;
      newId: () => string;
      /** This attempt's hold rule; without one, every line is stored accepted. */
      holds?: FileHoldRule;
    },
  ) {
    // Read inside the file's transaction; this file's earlier batches are in the table too, so
    // they are no earlier payment there (the rule matches them as lines of this file).
    this.facts = new StorePickupFacts(trx, at.company, at.fileId);
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
    const holds: DecidedHold[] = at.holds ? await at.holds.holds(payments, ids, this.facts) : [];
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
    for (const { messages: _messages, ...h } of holds)
      this.holds.push({ ...h, lineNumber: lines.get(h.endToEndId) ?? 0 });
    for (const p of payments)
      this.totals.set(p.amount.currency, (this.totals.get(p.amount.currency) ?? 0n) + p.amount.minor);
    this.accepted += payments.length;
    this.batch = [];
  }
}

function paymentRow(
  { id, fileId, company }: { id: string; fileId: string; company: string },
  p: PaymentInstruction,
  now: Date,
  hold: DecidedHold | undefined,
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
    creditor_name_folded: foldForSearch(p.creditorName),
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
    ...(hold ? { tpp_messages: JSON.stringify(hold.messages) } : {}),
    created_at: instant(now),
    updated_at: instant(now),
  };
}
