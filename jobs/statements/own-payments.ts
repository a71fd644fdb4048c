// Which of an account's booked debits are settle's own payments, and which payments each
// one books: the debit notification's content. The answer comes from the matching rules that
// reconciliation uses (end-to-end id, batch lump sum, amount + account + date), so the
// notification and the reconciliation report never disagree about what a booking paid.
import { normalizeIban } from '../../src/domain/account-id.js';
import { addDays, type LocalDate } from '../../src/domain/local-date.js';
import type { TransactionReferences } from '../../src/domain/statement.js';
import { matchPayments, type ReconcileConfig, type SentPayment } from '../../src/domain/reconcile/index.js';
import type { Store, StoredPayment, StoredTransaction } from '../../src/store/index.js';
import { sentPayments } from '../reconcile/index.js';

/** A payment settle sent, with the ids the ERP and the bank know it by. */
export interface OwnPaymentLine {
  payment: StoredPayment;
  references: TransactionReferences;
}

export interface OwnPaymentSource {
  /** The lines each of `debits` (booked on `day` on the account) pays, keyed by the transaction's id; unmatched debits are absent. */
  linesOf(
    company: string,
    accountIban: string,
    day: LocalDate,
    debits: readonly StoredTransaction[],
  ): Promise<Map<string, OwnPaymentLine[]>>;
}

/** Date windows of sent lines a run keeps read (see ownPaymentSource). */
const WINDOWS_KEPT = 8;

/**
 * Reads payments through the store; one instance per run. It keeps the sent lines of each date
 * window it read: the lines executed within the matching window of a booking day, not every line
 * the company ever sent (which a run read whole and filtered again for each account and day, a
 * cost that grew with every night of history).
 */
export function ownPaymentSource(store: Store, matching: ReconcileConfig): OwnPaymentSource {
  const sentOf = new Map<string, Promise<SentPayment[]>>();
  const bulkLines = new Map<string, Promise<Map<string, OwnPaymentLine>>>();

  /** The lines of a bulk with their file's message id and the bank's payment id, by payment id. */
  const linesOfBulk = (bulkId: string): Promise<Map<string, OwnPaymentLine>> => {
    let lines = bulkLines.get(bulkId);
    if (lines === undefined) {
      lines = (async () => {
        const bulk = await store.bulks.get(bulkId);
        const payments = await store.payments.listByBulk(bulkId);
        const file = payments[0] === undefined ? undefined : await store.files.getFile(payments[0].fileId);
        return new Map(
          payments.map((payment) => {
            const references: TransactionReferences = { endToEndId: payment.endToEndId };
            if (file?.messageId !== undefined) references.messageId = file.messageId;
            if (payment.paymentInformationId !== undefined)
              references.paymentInformationId = payment.paymentInformationId;
            if (bulk?.bankPaymentId !== undefined) references.bankPaymentId = bulk.bankPaymentId;
            return [payment.id, { payment, references }];
          }),
        );
      })();
      bulkLines.set(bulkId, lines);
    }
    return lines;
  };

  return {
    async linesOf(company, accountIban, day, debits) {
      const iban = normalizeIban(accountIban);
      const from = addDays(day, -matching.dateWindowDays);
      const to = addDays(day, matching.dateWindowDays);
      // The window's lines, read once a run for every account booked that day (sorted by id, as the
      // matching rules take them).
      const key = `${company}\u0000${from}\u0000${to}`;
      let sent = sentOf.get(key);
      if (sent === undefined) {
        sent = sentPayments(store, company, { from, to });
        // A few windows are kept (the accounts of a day, the days next to it): a run over a year of
        // days would otherwise hold each day's window, and the windows overlap.
        if (sentOf.size >= WINDOWS_KEPT) sentOf.delete(sentOf.keys().next().value as string);
        sentOf.set(key, sent);
      }
      const candidates = (await sent).filter((p) => normalizeIban(p.debtorIban) === iban);
      const transactions = debits.map((t) => ({
        id: t.id,
        company,
        accountIban: iban,
        amount: t.amount,
        bookingDate: t.bookingDate ?? day,
        ...(t.valueDate === undefined ? {} : { valueDate: t.valueDate }),
        ...(t.endToEndId === undefined ? {} : { endToEndId: t.endToEndId }),
        ...(t.counterpartyIban === undefined ? {} : { counterpartyIban: t.counterpartyIban }),
        ...(t.counterpartyName === undefined ? {} : { counterpartyName: t.counterpartyName }),
      }));
      const matches = matchPayments(candidates, transactions, matching).matches();
      const out = new Map<string, OwnPaymentLine[]>();
      for (const match of matches) {
        const lines: OwnPaymentLine[] = [];
        for (const index of match.payments) {
          const sentLine = candidates[index]!;
          const line = (await linesOfBulk(sentLine.bulkId)).get(sentLine.id);
          if (line !== undefined) lines.push(line);
        }
        lines.sort((a, b) => a.payment.lineNumber - b.payment.lineNumber);
        out.set(transactions[match.transaction]!.id, lines);
      }
      return out;
    },
  };
}
