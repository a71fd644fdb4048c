// A stored account day as a camt.054 notification. Like the statement, everything in it is a
// function of the stored data and the day (id, sequence number, creation time), so writing the
// same day again gives the same bytes, which the re-export check relies on.
import type { Notification, NotificationEntry, NotificationKind } from '../../src/domain/notification.js';
import { remittanceOf } from '../../src/domain/statement.js';
import { endOfDay } from '../../src/domain/zoned-time.js';
import type { StatementDay, StatementRepository, StoredAccount, StoredTransaction } from '../../src/store/index.js';
import { accountServicerRef, byLedgerOrder, statementAccount, statementEntry, statementId } from './build-statement.js';
import type { OwnPaymentLine, OwnPaymentSource } from './own-payments.js';

export interface NotificationDay {
  kind: NotificationKind;
  account: StoredAccount;
  company: string;
  ownerName: string;
  day: StatementDay;
  sequenceNumber: number;
  timeZone: string;
}

export interface NotificationSources {
  statements: StatementRepository;
  /** Needed for debit notifications only. */
  ownPayments?: OwnPaymentSource;
}

export async function buildNotification(sources: NotificationSources, period: NotificationDay): Promise<Notification> {
  const { account, day, kind } = period;
  const booked = (await sources.statements.listTransactions(account.id, { status: 'booked', bookingDate: day.day }))
    .filter((t) => (kind === 'credit' ? t.amount.minor > 0n : t.amount.minor < 0n))
    .sort(byLedgerOrder);
  const entries = kind === 'credit' ? booked.map(creditEntry) : await debitEntries(sources, period, booked);
  return {
    kind,
    id: `${statementId(account.id, day.day, day.day)}-${kind === 'credit' ? 'C' : 'D'}`,
    sequenceNumber: period.sequenceNumber,
    createdAt: endOfDay(day.day, period.timeZone),
    account: statementAccount(account, period.ownerName, day.currency),
    fromDate: day.day,
    toDate: day.day,
    entries,
  };
}

/** The booking's own fields, shared by both kinds. */
function entryOf(tx: StoredTransaction): Omit<NotificationEntry, 'transactions'> {
  const entry: Omit<NotificationEntry, 'transactions'> = {
    amount: tx.amount,
    bookingDate: tx.bookingDate!,
    entryReference: tx.bankTransactionId,
  };
  if (tx.valueDate !== undefined) entry.valueDate = tx.valueDate;
  const ref = accountServicerRef(tx);
  if (ref !== undefined) entry.accountServicerRef = ref;
  return entry;
}

/** An incoming payment: the payer, the remittance with its checked creditor reference. */
function creditEntry(tx: StoredTransaction): NotificationEntry {
  const { endToEndId, accountServicerRef: ref, counterparty, remittance } = statementEntry(tx);
  return {
    ...entryOf(tx),
    transactions: [
      {
        amount: tx.amount,
        references: {
          ...(ref === undefined ? {} : { accountServicerRef: ref }),
          ...(endToEndId === undefined ? {} : { endToEndId }),
        },
        ...(counterparty === undefined ? {} : { counterparty }),
        ...(remittance === undefined ? {} : { remittance }),
      },
    ],
  };
}

/** settle's own payments: one entry per booking, one transaction per payment line it covers. */
async function debitEntries(
  sources: NotificationSources,
  period: NotificationDay,
  debits: readonly StoredTransaction[],
): Promise<NotificationEntry[]> {
  if (sources.ownPayments === undefined) throw new Error('debit notifications need the own payment source');
  if (debits.length === 0) return [];
  const iban = period.account.iban ?? period.account.id;
  const linesOf = await sources.ownPayments.linesOf(period.company, iban, period.day.day, debits);
  return debits.flatMap((tx) => {
    const lines = linesOf.get(tx.id);
    if (lines === undefined || lines.length === 0) return [];
    const ref = accountServicerRef(tx);
    return [{ ...entryOf(tx), transactions: lines.map((line) => debitTransaction(line, ref, tx.amount.currency)) }];
  });
}

function debitTransaction(line: OwnPaymentLine, accountServicerRef: string | undefined, currency: string) {
  const { payment } = line;
  const remittance = remittanceOf(payment.remittanceInformation, payment.creditorReference);
  return {
    amount: { minor: -payment.amount.minor, currency: payment.amount.currency || currency },
    references: { ...line.references, ...(accountServicerRef === undefined ? {} : { accountServicerRef }) },
    counterparty: {
      name: payment.creditorName,
      iban: payment.creditorIban,
      ...(payment.creditorBic === undefined ? {} : { bic: payment.creditorBic }),
    },
    ...(remittance === undefined ? {} : { remittance }),
  };
}
