// Read model for people asking about payments (`settle payments show|list`): one payment's whole
// story — its file and line, bulk, basket, every state change of each, and the bookings that
// carry its end-to-end id — and bulks filtered the way an operator asks. Nothing here writes.
import type { Clock } from '../domain/clock.js';
import type { BulkState } from '../domain/states.js';
import type { LocalDate } from '../domain/local-date.js';
import { normalizeIban } from '../domain/account-id.js';
import { BasketRepository, type StoredBasket } from './baskets.js';
import { BulkOutbox, type StoredBulk } from './bulks.js';
import type { Database } from './database.js';
import { FileLedger, type StoredFile } from './file-ledger.js';
import { toStoredPayment, type StoredPayment } from './payments.js';
import { toStr, type Row } from './rows.js';
import { listTransitions } from './transition-history.js';
import type { TransitionRecord } from './transitions.js';
import { StatementRepository, type StoredTransaction } from './statements.js';

export interface PaymentStory {
  payment: StoredPayment;
  file?: StoredFile;
  bulk?: StoredBulk;
  /** The signing basket holding the bulk, without its approval link. */
  basket?: Omit<StoredBasket, 'approvalLink'>;
  /** Every state change of the file, the bulk, the basket and the line, oldest first. */
  history: TransitionRecord[];
  /** Transactions on the company's accounts that carry the payment's end-to-end id. */
  bookings: (StoredTransaction & { accountIban?: string })[];
}

export interface BulkFilter {
  /** Undefined: every state. */
  states?: readonly BulkState[];
  company?: string;
  /** A payment file's id or name. */
  file?: string;
  executionDate?: LocalDate;
  /** Debtor account (IBAN, any spacing). */
  account?: string;
}

/** At most this many payments answer one reference (a bank payment id names a whole bulk). */
const MAX_MATCHES = 1000;

export class PaymentViews {
  private readonly files: FileLedger;
  private readonly bulks: BulkOutbox;
  private readonly baskets: BasketRepository;
  private readonly statements: StatementRepository;

  constructor(
    private readonly db: Database,
    clock: Clock,
  ) {
    this.files = new FileLedger(db, clock);
    this.bulks = new BulkOutbox(db, clock);
    this.baskets = new BasketRepository(db, clock);
    this.statements = new StatementRepository(db, clock);
  }

  /**
   * The payments a person's reference names: settle's line id, the end-to-end id or creditor
   * reference the ERP gave, or the bank's payment id (every line of that bulk).
   */
  async find(reference: string, company?: string): Promise<StoredPayment[]> {
    const q = this.db.knex<Row>('payments').where((w) => {
      void w
        .where('id', reference)
        .orWhere('end_to_end_id', reference)
        .orWhere('creditor_reference', reference)
        .orWhereIn('bulk_id', this.db.knex('bulks').select('id').where('bank_payment_id', reference));
    });
    if (company !== undefined) void q.where({ company });
    return (await q.orderBy(['company', 'file_id', 'line_number']).limit(MAX_MATCHES)).map(toStoredPayment);
  }

  async story(payment: StoredPayment): Promise<PaymentStory> {
    const file = await this.files.getFile(payment.fileId);
    const bulk = payment.bulkId === undefined ? undefined : await this.bulks.get(payment.bulkId);
    // A bulk is in a second basket only when the first failed: the newest one is the story.
    const holding = bulk ? await this.baskets.idsHolding([bulk.id]) : [];
    const stored = (await Promise.all(holding.map((id) => this.baskets.get(id))))
      .filter((b) => b !== undefined)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .at(-1);
    const basket = stored ? withoutLink(stored) : undefined;
    const history = [
      ...(await listTransitions(this.db.knex, 'payment_file', payment.fileId)),
      ...(bulk ? await listTransitions(this.db.knex, 'bulk', bulk.id) : []),
      ...(basket ? await listTransitions(this.db.knex, 'basket', basket.id) : []),
      ...(await listTransitions(this.db.knex, 'payment', payment.id)),
    ].sort((a, b) => a.at.getTime() - b.at.getTime());
    const accounts = new Map((await this.statements.listAccounts(payment.company)).map((a) => [a.id, a.iban] as const));
    const bookings = (await this.statements.findByEndToEndId(payment.endToEndId))
      .filter((t) => accounts.has(t.accountId))
      .map((t) => {
        const accountIban = accounts.get(t.accountId);
        return accountIban === undefined ? t : { ...t, accountIban };
      });
    return {
      payment,
      ...(file ? { file } : {}),
      ...(bulk ? { bulk } : {}),
      ...(basket ? { basket } : {}),
      history,
      bookings,
    };
  }

  /** Bulks matching every given filter, oldest first. */
  async listBulks(filter: BulkFilter): Promise<StoredBulk[]> {
    const q = this.db.knex<Row>('bulks').select('bulks.id as id');
    if (filter.states !== undefined) void q.whereIn('bulks.state', [...filter.states]);
    if (filter.company !== undefined) void q.where('bulks.company', filter.company);
    if (filter.executionDate !== undefined) void q.where('bulks.execution_date', filter.executionDate);
    if (filter.account !== undefined) void q.where('bulks.debtor_iban', normalizeIban(filter.account));
    if (filter.file !== undefined) {
      const file = filter.file;
      void q.join('payment_files', 'payment_files.id', 'bulks.file_id').where((w) => {
        void w.where('payment_files.id', file).orWhere('payment_files.file_name', file);
      });
    }
    const ids = (await q.orderBy(['bulks.file_id', 'bulks.position'])).map((r: Row) => toStr(r.id));
    const bulks: StoredBulk[] = [];
    for (const id of ids) {
      const bulk = await this.bulks.get(id);
      if (bulk) bulks.push(bulk);
    }
    return bulks;
  }
}

function withoutLink(basket: StoredBasket): Omit<StoredBasket, 'approvalLink'> {
  const { approvalLink: _link, ...rest } = basket;
  return rest;
}
